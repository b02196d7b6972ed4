/**
 * A CSV reader for question sets (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes, CRLF or
 * LF). Written here rather than taken from a package because the core must run unchanged in Node 20 and in
 * workers with no dependency the other core modules do not already carry, and a question set is a few
 * thousand rows at most: one pass over the characters is all it needs.
 *
 * Each record carries the 1-based line of the file it starts on, so a message can name the row a spreadsheet
 * shows (they are the same unless a cell holds a line break).
 */

/** One record: its cells and the 1-based line of the file where it starts. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** Separators a question set may use; the header line decides (the most frequent one outside quotes). */
const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter of `text`: whichever of comma, semicolon and tab its first line holds most, outside quotes. */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best: string = DELIMITERS[0];
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

/**
 * Splits CSV text into records. A quote opens a quoted field only at the start of a field (elsewhere it is an
 * ordinary character, as spreadsheets read it); inside one, `""` is a quote and line breaks belong to the
 * cell. Lines that are entirely empty are skipped. An unterminated quote ends at the end of the text.
 * @param delimiter default: `detectDelimiter(text)`.
 */
export function parseCsv(text: string, delimiter = detectDelimiter(text)): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let fieldStart = true;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
    fieldStart = true;
  };
  // A byte-order mark is not part of the first header name.
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
        cell += c;
      }
      continue;
    }
    if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (c === delimiter) {
      cells.push(cell);
      cell = '';
      fieldStart = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      cell += c;
      fieldStart = false;
    }
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}
