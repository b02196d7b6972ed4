/** Saving text the page made (an exported tree, an evaluation report) as a file the browser downloads. */

/** Offers `text` as a file named `name` of type `type`. */
export function download(name: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Characters of a title a file name keeps. */
const FILE_BASE_CHARS = 80;

/** A file name (without extension) from a title: no characters file systems refuse, `fallback` if empty. */
export function safeFileBase(title: string, fallback: string): string {
  return (
    title
      // eslint-disable-next-line no-control-regex -- control characters are not allowed in file names
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, FILE_BASE_CHARS) || fallback
  );
}
