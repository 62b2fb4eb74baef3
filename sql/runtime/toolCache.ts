// Where tools Holo installs for itself on a machine live (the Temporal CLI, the test suite's
// schemathesis): one per user, kept across data directories and clones.
import os from 'node:os';
import path from 'node:path';

export const toolCacheDir = (): string => path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'holo');
