// `npm run fuzz`: schemathesis against /openapi.json on a live stack, as each of the four callers
// (anonymous, an API key, a signed-in user, an administrator), with a random seed (printed, so a
// finding can be replayed) and more examples than the suite's conformance tests. Not part of
// `npm test`: a hunt before resolving an issue, run alone (it is heavy).
//   npm run fuzz                      random seed, 50 examples per operation
//   npm run fuzz -- --seed 58881 --examples 100 --caller anonymous
import { parseArgs } from 'node:util';
import { fuzzAs, fuzzCallers, openConformanceStack } from './support/conformance.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    examples: { type: 'string', default: '50' },
    caller: { type: 'string', multiple: true },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const examples = Number(values.examples);
if (!Number.isInteger(seed) || !Number.isInteger(examples) || examples < 1) {
  console.error('usage: npm run fuzz -- [--seed N] [--examples N] [--caller anonymous|"an API key"|"a session"|"an administrator"]…');
  process.exit(2);
}
console.log(`fuzz: seed ${seed}, ${examples} examples per operation (replay: npm run fuzz -- --seed ${seed} --examples ${examples})`);

const { stack, sessionOf, close } = await openConformanceStack();
let failed = 0;
try {
  const callers = (await fuzzCallers(sessionOf)).filter((c) => !values.caller || values.caller.includes(c.who));
  for (const caller of callers) {
    const { who } = caller;
    const started = Date.now();
    const result = await fuzzAs(stack.url, caller, { maxExamples: examples, seed, timeoutMs: 4 * 3600_000 });
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    console.log(`\n== ${who}: ${result.code === 0 ? 'no findings' : `findings (exit ${result.code})`} in ${minutes} min, seed ${seed}`);
    if (result.code !== 0) {
      failed++;
      console.log(result.output.slice(-40_000));
    }
  }
} finally {
  await close();
}
console.log(`\nfuzz: seed ${seed}: ${failed === 0 ? 'every caller clean' : `${failed} caller(s) with findings`}`);
process.exit(failed === 0 ? 0 : 1);
