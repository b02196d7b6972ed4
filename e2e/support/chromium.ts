/**
 * How Aerie's browser tests and benchmarks start Chromium: Debian's `chromium` (never a downloaded browser),
 * headless, with every background service that would reach the network turned off.
 */

/** The Chromium binary; `AERIE_CHROMIUM` overrides the Debian default. */
export const CHROMIUM_PATH = process.env.AERIE_CHROMIUM ?? '/usr/bin/chromium';

/** Launch flags. Host resolution is limited to loopback so any stray request fails fast and visibly. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1',
];

/**
 * Launch flags of the WebGPU project: the same, with WebGPU on (`--enable-unsafe-webgpu`, and without
 * `--disable-gpu`). Headless Chromium then offers an adapter: here SwiftShader (Vulkan emulated on the CPU, the
 * browser's software fallback, no `shader-f16`), on a machine with a usable GPU that GPU. Pages must be served
 * from 127.0.0.1 or localhost: WebGPU needs a secure context. SwiftShader's times are CPU emulation, never a GPU
 * speed.
 */
export const CHROMIUM_WEBGPU_ARGS = [
  ...CHROMIUM_ARGS.filter((arg) => arg !== '--disable-gpu'),
  '--enable-unsafe-webgpu',
];
