// random.ts's counter-based draw (`counterBits`), bit for bit: MurmurHash3's finaliser of key ^ counter.

/** MurmurHash3's 32-bit finaliser (random.ts `mix32`). */
@inline
function mix32(v: u32): u32 {
  let x = v;
  x = (x ^ (x >>> 16)) * 0x85ebca6b;
  x = (x ^ (x >>> 13)) * 0xc2b2ae35;
  return x ^ (x >>> 16);
}

/** The 32 bits of a counter-based draw from a key (random.ts `counterKey`) and a mixed counter (`counterBits`). */
@inline
export function counterBits(key: u32, mixedCounter: u32): u32 {
  return mix32(key ^ mixedCounter);
}
