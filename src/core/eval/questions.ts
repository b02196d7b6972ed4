/**
 * Evaluation question sets: the question shape and the readers of JSONL and CSV files. A bad row gets a
 * message naming its row (the file's 1-based line) and field; every good row is kept, so one typo never costs
 * the rest of a set.
 *
 * Accepted fields (JSONL keys or CSV header names, case-insensitive in CSV):
 * - `question` (required): the question;
 * - `answer`: a reference answer;
 * - `evidence`: verbatim quotes from the documents (JSON array of strings, or one string);
 * - `choices` + `gold`: multiple choice, `gold` the 0-based index of the right choice;
 * - `id`, `kind` (e.g. "fact" or "arc"), `goldNode` and `goldText` (the node a generated question was written
 *   from, and its text).
 * QuALITY's rows map onto this: an article row's `questions` each become a question (`question_unique_id` →
 * `id`, `options` → `choices`, its 1-based `gold_label` → `gold`, `difficult` → kind "hard"), and a flattened
 * row with `options` and `gold_label` reads the same way.
 * In CSV, `evidence` and `choices` hold a JSON array (`["a", "b"]`) or one item per line of the cell.
 */
import { parseCsv } from './csv';

/** One evaluation question. */
export interface EvalQuestion {
  /** The set's own id of the question, if it has one. */
  id?: string;
  question: string;
  /** Reference answer (token F1, ROUGE-L, the judge). */
  answer?: string;
  /** Verbatim quotes from the documents that answer it (evidence recall). */
  evidence?: string[];
  /** Multiple-choice options. */
  choices?: string[];
  /** 0-based index into `choices` of the right option. */
  gold?: number;
  /** Generated questions: the id of the node the question was written from (the hit rule's target). */
  goldNode?: number;
  /**
   * Generated questions: the text of that node, so a tree that has the same text under another id (the same
   * leaves after a rebuild with another model or summariser) still scores the question.
   */
  goldText?: string;
  /** A free label to group results by, e.g. "fact", "arc", "detail", "theme". */
  kind?: string;
}

/** A row that could not be read: its 1-based line in the file, the field at fault and why. */
export interface QuestionSetError {
  row: number;
  /** The field at fault (e.g. "question", "evidence[2]", "questions[3].options"); "" for the whole row. */
  field: string;
  message: string;
}

/** What an import did, in exact counts. */
export interface QuestionSetCounts {
  /** Good questions in the file (kept and over the limit). */
  read: number;
  /** Questions (or rows) that could not be read; each has at least one entry in `errors` (up to MAX_ERRORS). */
  skipped: number;
  /** Good questions past `MAX_QUESTIONS`, left out. */
  overLimit: number;
}

/** What `parseQuestionSet` read. */
export interface ParsedQuestionSet {
  /** The questions kept: the first MAX_QUESTIONS good ones. */
  questions: EvalQuestion[];
  /** Why rows could not be read, the first MAX_ERRORS of them (`counts.skipped` counts them all). */
  errors: QuestionSetError[];
  counts: QuestionSetCounts;
}

/** The file formats a question set can come in. */
export type QuestionSetFormat = 'jsonl' | 'csv';

/** Most questions one set may hold: more is a wrong file, not an evaluation. */
export const MAX_QUESTIONS = 10_000;
/** Row errors kept for display (the count of skipped rows is exact beyond it). */
export const MAX_ERRORS = 1_000;
/** Biggest question-set file read, in bytes (the app and `npm run eval` alike): a set is text. */
export const MAX_SET_FILE_BYTES = 20_000_000;
/** Fewest options a multiple-choice question can have. */
const MIN_CHOICES = 2;

/** A field was wrong: where and why. */
type FieldIssue = { field: string; message: string };
type Read = { question?: EvalQuestion; issues: FieldIssue[] };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(value: unknown, field: string, issues: FieldIssue[]): string[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list)) {
    issues.push({ field, message: `${field} must be a list of texts.` });
    return undefined;
  }
  const out: string[] = [];
  list.forEach((item, i) => {
    if (typeof item !== 'string' && typeof item !== 'number') {
      issues.push({ field: `${field}[${i}]`, message: `${field}[${i}] must be a text.` });
    } else if (String(item).trim() === '') {
      issues.push({ field: `${field}[${i}]`, message: `${field}[${i}] is empty.` });
    } else out.push(String(item).trim());
  });
  return out;
}

function optionalText(value: unknown, field: string, issues: FieldIssue[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') {
    issues.push({ field, message: `${field} must be a text.` });
    return undefined;
  }
  return value.trim() === '' ? undefined : value.trim();
}

function optionalIndex(value: unknown, field: string, issues: FieldIssue[]): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    issues.push({ field, message: `${field} must be a whole number ≥ 0, got ${JSON.stringify(value)}.` });
    return undefined;
  }
  return n;
}

/**
 * Reads one question from an object with our field names (plus QuALITY's `options`/`gold_label`/
 * `question_unique_id`/`difficult`). `prefix` names nested fields ("questions[2].").
 */
function readQuestion(row: Record<string, unknown>, prefix = ''): Read {
  const issues: FieldIssue[] = [];
  const field = (name: string) => prefix + name;
  const rawQuestion = row.question;
  if (rawQuestion === undefined || rawQuestion === null || String(rawQuestion).trim() === '') {
    issues.push({ field: field('question'), message: 'The question is missing or empty.' });
  } else if (typeof rawQuestion !== 'string') {
    issues.push({ field: field('question'), message: 'The question must be a text.' });
  }
  const id = optionalText(row.id ?? row.question_unique_id, field('id'), issues);
  const answer = optionalText(row.answer, field('answer'), issues);
  const kind =
    optionalText(row.kind, field('kind'), issues) ??
    (row.difficult === true || row.difficult === 1 || row.difficult === '1' ? 'hard' : undefined);
  const evidence = stringList(row.evidence, field('evidence'), issues);
  const usesOptions = row.choices === undefined && row.options !== undefined;
  const choicesField = field(usesOptions ? 'options' : 'choices');
  const choices = stringList(usesOptions ? row.options : row.choices, choicesField, issues);
  if (choices && choices.length < MIN_CHOICES) {
    issues.push({
      field: choicesField,
      message: `A multiple-choice question needs at least ${MIN_CHOICES}.`,
    });
  }
  let gold: number | undefined;
  if (row.gold !== undefined && row.gold !== null && row.gold !== '') {
    gold = optionalIndex(row.gold, field('gold'), issues);
  } else if (row.gold_label !== undefined && row.gold_label !== null && row.gold_label !== '') {
    // QuALITY numbers its options from 1.
    const label = optionalIndex(row.gold_label, field('gold_label'), issues);
    if (label === 0) issues.push({ field: field('gold_label'), message: 'gold_label counts from 1.' });
    else if (label !== undefined) gold = label - 1;
  }
  const goldField = field(row.gold !== undefined ? 'gold' : 'gold_label');
  if (gold !== undefined && !choices) {
    issues.push({ field: goldField, message: 'A gold index needs choices to point into.' });
  } else if (gold !== undefined && choices && gold >= choices.length) {
    issues.push({
      field: goldField,
      message: `The gold index ${gold} (from 0) is past the last of ${choices.length} choices.`,
    });
  }
  const goldNode = optionalIndex(row.goldNode, field('goldNode'), issues);
  // Compared with node texts as they are: not trimmed.
  const goldText = typeof row.goldText === 'string' && row.goldText !== '' ? row.goldText : undefined;
  if (row.goldText !== undefined && row.goldText !== '' && typeof row.goldText !== 'string') {
    issues.push({ field: field('goldText'), message: 'goldText must be a text.' });
  }
  if (issues.length > 0) return { issues };
  const question: EvalQuestion = { question: (rawQuestion as string).trim() };
  if (id !== undefined) question.id = id;
  if (answer !== undefined) question.answer = answer;
  if (evidence && evidence.length > 0) question.evidence = evidence;
  if (choices) question.choices = choices;
  if (gold !== undefined) question.gold = gold;
  if (goldNode !== undefined) question.goldNode = goldNode;
  if (goldText !== undefined) question.goldText = goldText;
  if (kind !== undefined) question.kind = kind;
  return { question, issues };
}

/** One JSONL row: a question, or a QuALITY article row holding many. */
function readJsonRow(value: unknown): Read[] {
  if (!isRecord(value)) return [{ issues: [{ field: '', message: 'A row must be a JSON object.' }] }];
  if (Array.isArray(value.questions) && value.question === undefined) {
    return value.questions.map((q, i) =>
      isRecord(q)
        ? readQuestion(q, `questions[${i}].`)
        : { issues: [{ field: `questions[${i}]`, message: 'Each question must be a JSON object.' }] },
    );
  }
  return [readQuestion(value)];
}

function parseJsonl(text: string, out: ParsedQuestionSet, collect: Collect): void {
  // A whole JSON array (a `.json` export) is read item by item, each item a row.
  const whole = text.replace(/^\uFEFF/, '').trim();
  if (whole.startsWith('[')) {
    try {
      const items: unknown = JSON.parse(whole);
      if (Array.isArray(items)) {
        items.forEach((item, i) => {
          for (const read of readJsonRow(item)) collect(read, i + 1);
        });
        return;
      }
    } catch {
      // Not one JSON document: read line by line below, where the bad lines are named.
    }
  }
  const lines = text.split(/\r\n|\n|\r/);
  lines.forEach((line, i) => {
    const trimmed = line.replace(/^\uFEFF/, '').trim();
    if (trimmed === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      rowError(out, { row: i + 1, field: '', message: `Not valid JSON: ${why}` });
      return;
    }
    for (const read of readJsonRow(value)) collect(read, i + 1);
  });
}

/** A CSV cell of a list field: a JSON array of texts, or one item per line. */
function csvList(cell: string): unknown {
  const trimmed = cell.trim();
  if (trimmed === '') return undefined;
  if (trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      // Not JSON after all: a quote that begins with a bracket is read line by line below.
    }
  }
  return trimmed
    .split(/\r\n|\n|\r/)
    .map((l) => l.trim())
    .filter(Boolean);
}

const CSV_LIST_FIELDS = new Set(['evidence', 'choices', 'options']);
/** CSV header names read as these fields (lower-cased). */
const CSV_FIELD_NAMES: Record<string, string> = { goldnode: 'goldNode', goldtext: 'goldText' };

function parseCsvText(text: string, out: ParsedQuestionSet, collect: Collect): void {
  const records = parseCsv(text);
  if (records.length === 0) return;
  const [header, ...rows] = records;
  const names = header.cells.map((c) => {
    const name = c.trim().toLowerCase();
    return CSV_FIELD_NAMES[name] ?? name;
  });
  if (!names.includes('question')) {
    rowError(out, {
      row: header.line,
      field: 'question',
      message: 'The header row has no “question” column (the first row must name the columns).',
    });
    return;
  }
  for (const record of rows) {
    const row: Record<string, unknown> = {};
    names.forEach((name, i) => {
      const cell = record.cells[i] ?? '';
      row[name] = CSV_LIST_FIELDS.has(name) ? csvList(cell) : cell;
    });
    collect(readQuestion(row), record.line);
  }
}

/** Adds one read row to the set: its issues as errors, its question unless the set is full. */
type Collect = (read: Read, row: number) => void;

function collector(out: ParsedQuestionSet): Collect {
  return (read, row) => {
    for (const issue of read.issues) {
      if (out.errors.length < MAX_ERRORS) out.errors.push({ row, ...issue });
    }
    if (!read.question) {
      out.counts.skipped++;
      return;
    }
    out.counts.read++;
    if (out.questions.length < MAX_QUESTIONS) out.questions.push(read.question);
    else out.counts.overLimit++;
  };
}

/** A file-level error: a row the reader could not even split into a question counts as skipped. */
function rowError(out: ParsedQuestionSet, error: QuestionSetError): void {
  out.counts.skipped++;
  if (out.errors.length < MAX_ERRORS) out.errors.push(error);
}

/**
 * Reads a question set from a JSONL file (one JSON object a line; a whole JSON array is read item by item) or a
 * CSV file with the same columns (a header row naming them). Bad rows are reported by row (the 1-based line of
 * the file, or the item's position in an array) and field; good rows are kept. Blank lines are skipped. At
 * most `MAX_QUESTIONS` questions are kept; `counts` says exactly how many were read, skipped and left out.
 */
export function parseQuestionSet(text: string, format: QuestionSetFormat): ParsedQuestionSet {
  const out: ParsedQuestionSet = {
    questions: [],
    errors: [],
    counts: { read: 0, skipped: 0, overLimit: 0 },
  };
  const collect = collector(out);
  if (format === 'jsonl') parseJsonl(text, out, collect);
  else parseCsvText(text, out, collect);
  return out;
}

/**
 * "12 questions read, 3 rows skipped, 90,000 over the 10,000-question limit left out": an import in exact
 * counts, for the page and the command line alike.
 */
export function questionSetSummary(counts: QuestionSetCounts): string {
  const n = (x: number) => x.toLocaleString('en');
  const parts = [`${n(counts.read)} ${counts.read === 1 ? 'question' : 'questions'} read`];
  if (counts.overLimit > 0) {
    parts.push(
      `the first ${n(MAX_QUESTIONS)} kept, ${n(counts.overLimit)} over the ${n(MAX_QUESTIONS)}-question limit left out`,
    );
  }
  parts.push(`${n(counts.skipped)} ${counts.skipped === 1 ? 'row' : 'rows'} skipped`);
  return parts.join(', ');
}

/** Why a question-set file of `bytes` is refused before it is read (over MAX_SET_FILE_BYTES). */
export function setFileTooLarge(name: string, bytes: number): string {
  const mb = (b: number) => (b / 1_000_000).toLocaleString('en', { maximumFractionDigits: 1 });
  return (
    `${name} is ${mb(bytes)} MB; a question set can be up to ${mb(MAX_SET_FILE_BYTES)} MB ` +
    `(${MAX_QUESTIONS.toLocaleString('en')} questions). Is it the right file? Split a larger set into several.`
  );
}

/** The format of a question-set file by its name: `.csv`/`.tsv` are CSV, anything else JSONL. */
export function questionSetFormatOf(fileName: string): QuestionSetFormat {
  return /\.(csv|tsv)$/i.test(fileName) ? 'csv' : 'jsonl';
}

/** A question set as JSONL (one object a line), the format `parseQuestionSet` reads back. */
export function serializeQuestionSet(questions: readonly EvalQuestion[]): string {
  return questions.map((q) => JSON.stringify(q)).join('\n') + (questions.length ? '\n' : '');
}
