/** Random ids for trees and list entries (128 bits; crypto.randomUUID is missing on plain-http origins). */
export function randomId(prefix = ''): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
