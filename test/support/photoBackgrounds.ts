// Real photographs to lay cards on in test photos: the sample images scikit-image ships inside its
// PyPI wheel (skimage/data: brick, grass, gravel, a coffee table, a cat, a motorcycle, a rocket...).
// Only the wheel is fetched, with pip's own client and without its dependencies, once per machine
// into the tool cache; its pictures are unpacked from it by Python's zipfile (a wheel is a zip).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { toolCacheDir } from '../../sql/runtime/toolCache.js';

const run = promisify(execFile);
export const SKIMAGE_VERSION = '0.26.0';

/** The photographs used as tables and floors (grey ones too: a grey table is a hard case). */
export const BACKGROUND_PHOTOS = [
  'brick.png',
  'grass.png',
  'gravel.png',
  'coffee.png',
  'chelsea.png',
  'camera.png',
  'page.png',
  'coins.png',
  'astronaut.png',
  'rocket.jpg',
  'ihc.png',
  'motorcycle_left.png',
] as const;
export type BackgroundPhoto = (typeof BACKGROUND_PHOTOS)[number];

let unpacking: Promise<string> | undefined;

/** The folder holding BACKGROUND_PHOTOS, fetched and unpacked on first use. */
export function backgroundPhotosDir(): Promise<string> {
  unpacking ??= (async () => {
    const dir = path.join(toolCacheDir(), `skimage-data-${SKIMAGE_VERSION}`);
    if (BACKGROUND_PHOTOS.every((f) => fs.existsSync(path.join(dir, f)))) return dir;
    const scratch = fs.mkdtempSync(path.join(toolCacheDir(), '.skimage-'));
    try {
      await run('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', `scikit-image==${SKIMAGE_VERSION}`, '-d', scratch], {
        maxBuffer: 16 * 1024 * 1024,
      });
      const wheel = fs.readdirSync(scratch).find((f) => f.endsWith('.whl'));
      if (!wheel) throw new Error('pip download gave no scikit-image wheel');
      const unpack = `import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for name in sys.argv[3:]:
    open(sys.argv[2] + '/' + name, 'wb').write(z.read('skimage/data/' + name))`;
      const out = path.join(scratch, 'data');
      fs.mkdirSync(out);
      await run('python3', ['-c', unpack, path.join(scratch, wheel), out, ...BACKGROUND_PHOTOS]);
      // Moved into place whole, so a process that finds the folder finds every picture.
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(out, dir);
      return dir;
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  })();
  return unpacking;
}
