// OpenCV compiled to WebAssembly (@techstark/opencv-js): edges, contours, perspective and the
// Fourier transform without a native download. Loaded once per process (~250 ms, ~60 MB).
import type * as OpenCv from '@techstark/opencv-js';

export type Cv = typeof OpenCv;
export type Mat = InstanceType<Cv['Mat']>;

let loading: Promise<Cv> | undefined;

export function openCv(): Promise<Cv> {
  loading ??= (async () => {
    const cv = (await import('@techstark/opencv-js')).default as unknown as Cv & { onRuntimeInitialized?: () => void; then?: unknown };
    // The module object is usable once its WebAssembly runtime has started.
    if (!('Mat' in cv) || typeof cv.Mat !== 'function') await new Promise<void>((resolve) => (cv.onRuntimeInitialized = resolve));
    // Emscripten makes the module a thenable that resolves to itself: awaiting it would never end.
    delete cv.then;
    return cv;
  })();
  return loading;
}

/** Runs `work` with the Mats it allocates through `keep`, and frees them all afterwards. */
export function withMats<T>(work: (keep: <M extends { delete(): void }>(m: M) => M) => T): T {
  const mats: { delete(): void }[] = [];
  try {
    return work((m) => {
      mats.push(m);
      return m;
    });
  } finally {
    for (const m of mats) m.delete();
  }
}
