// sfc32, the generator of src/core/random.ts, step for step: the same 32-bit words give the same draws.

let a: u32 = 0;
let b: u32 = 0;
let c: u32 = 0;
let d: u32 = 0;

/** Sets the four state words (random.ts's `Sfc32` fields a, b, c, d). */
export function setState(wa: u32, wb: u32, wc: u32, wd: u32): void {
  a = wa;
  b = wb;
  c = wc;
  d = wd;
}

/** State word 0 … 3 (a, b, c, d), to hand the state back to JavaScript. */
export function stateWord(index: i32): u32 {
  return index == 0 ? a : index == 1 ? b : index == 2 ? c : d;
}

/** The next draw in [0, 1). */
@inline
export function next(): f64 {
  const t: u32 = a + b + d;
  d = d + 1;
  a = b ^ (b >>> 9);
  b = c + (c << 3);
  c = ((c << 21) | (c >>> 11)) + t;
  return <f64>t / 4294967296.0;
}
