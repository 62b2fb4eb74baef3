// Assertions shared by the HTTP tests.
import assert from 'node:assert/strict';
import type { Stack } from './stack.js';

/** The path answers 422 in the spec's shape with an issue at `loc` (and of `type`, when given). */
export async function expect422(stack: Stack, path: string, loc: (string | number)[], type?: string): Promise<void> {
  const { status, body } = await stack.json(path);
  assert.equal(status, 422, `${path} should be 422`);
  const issue = body.detail.find((d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(loc));
  assert.ok(issue, `${path}: expected an issue at ${JSON.stringify(loc)}, got ${JSON.stringify(body)}`);
  assert.equal(typeof issue.msg, 'string');
  if (type) assert.equal(issue.type, type);
}
