// npm run secrets:rotate: a new signing key for every token (session cookies, renewal and
// download links, scan claims, CSRF), the old one kept to verify what it signed until that
// expires (30 days at most). Then restart the API instances and workers: they read the keyring
// at start. With HOLO_SESSION_SECRET set, the keys are the environment's: it says what to set.
import { loadConfig } from '../../schemas/config.js';
import { rotateKeyring, MAX_TOKEN_SECONDS } from '../../sql/runtime/signingKeys.js';

const config = loadConfig();
if (config.sessionSecret) {
  process.stderr.write(
    'HOLO_SESSION_SECRET is set: the keys are in the environment, not in the data directory. To rotate:\n' +
      '  1. add a new random key (32+ characters) to HOLO_SESSION_SECRET_PREVIOUS on every instance and worker, restart them;\n' +
      '  2. make it HOLO_SESSION_SECRET and move the old one into HOLO_SESSION_SECRET_PREVIOUS, restart them;\n' +
      `  3. ${MAX_TOKEN_SECONDS / 86_400} days later, remove the old key from HOLO_SESSION_SECRET_PREVIOUS.\n`,
  );
  process.exit(1);
}
const rotated = await rotateKeyring(config.dataDir);
process.stdout.write(
  `Signing key rotated in ${config.dataDir}: new tokens carry kid ${rotated.currentKid}; ` +
    `kid ${rotated.retiredKid} verifies for ${MAX_TOKEN_SECONDS / 86_400} more days (${rotated.previous} previous key(s) kept). ` +
    'Restart the API instances and workers to use it.\n',
);
