// random.ts's counter-based draw (`counterDraw`), bit for bit: MurmurHash3's finaliser of key ^ counter.

/** MurmurHash3's 32-bit finaliser (random.ts `mix32`). */
@inline
function mix32(v: u32): u32 {
  let x = v;
  x = (x ^ (x >>> 16)) * 0x85ebca6b;
  x = (x ^ (x >>> 13)) * 0xc2b2ae35;
  return x ^ (x >>> 16);
}

/** A uniform number in [0, 1) from a key (random.ts `counterKey`) and a mixed counter (`counterMix`). */
@inline
export function counterDraw(key: u32, mixedCounter: u32): f64 {
  return <f64>mix32(key ^ mixedCounter) / 4294967296.0;
}
