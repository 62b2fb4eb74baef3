// pokemontcg.io's `q` search syntax (a Lucene subset), parsed by recursive descent into a tree
// that sql/pokemontcg.ts compiles to parameterised SQL. Grammar:
//
//   query   := or
//   or      := and ( "OR" and )*
//   and     := unary ( ["AND"] unary )*          terms side by side are ANDed
//   unary   := ( "-" | "NOT" ) unary | primary
//   primary := "(" or ")" | term
//   term    := ["!"] field ":" value              "!" asks for the exact value, case aside
//   field   := name ( "." name )*                 name := [A-Za-z0-9_]+
//   value   := phrase | range | word
//   phrase  := '"' ( any but '"' | '\"' )* '"'
//   range   := ( "[" | "{" ) bound "TO" bound ( "]" | "}" )    [ ] inclusive, { } exclusive
//   bound   := "*" | phrase | word
//   word    := any run of characters but whitespace and ( ) [ ] { } " ; "*" and "?" are wildcards
//
// Control characters other than whitespace are refused anywhere in the text.

export type QValue = { type: 'word' | 'phrase' | 'wildcard'; text: string };
export type QNode =
  | { kind: 'and' | 'or'; nodes: QNode[] }
  | { kind: 'not'; node: QNode }
  | { kind: 'match'; field: string[]; exact: boolean; value: QValue }
  | { kind: 'range'; field: string[]; lo: string | null; hi: string | null; loInclusive: boolean; hiInclusive: boolean };

export class QSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at character ${position + 1}`);
  }
}

/** Bounds that keep one query's SQL small: terms and nesting. */
export const Q_LIMITS = { length: 1000, terms: 40, depth: 12 } as const;

const WORD_STOP = new Set([' ', '\t', '\n', '\r', '(', ')', '[', ']', '{', '}', '"']);

export function parseQ(input: string): QNode {
  if (input.length > Q_LIMITS.length) throw new QSyntaxError(`q is longer than ${Q_LIMITS.length} characters`, Q_LIMITS.length);
  // No card or set holds a control character, and PostgreSQL refuses NUL in any text it is given.
  // oxlint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  const control = input.search(/[\u0000-\u0008\u000e-\u001f\u007f]/);
  if (control >= 0) throw new QSyntaxError('control characters are not allowed', control);
  let pos = 0;
  let terms = 0;
  let depth = 0;

  const skipSpace = () => {
    while (pos < input.length && /\s/.test(input[pos]!)) pos++;
  };
  const atKeyword = (word: string) => {
    skipSpace();
    if (!input.startsWith(word, pos)) return false;
    const next = input[pos + word.length];
    return next === undefined || /\s/.test(next) || next === '(';
  };
  const expect = (ch: string) => {
    skipSpace();
    if (input[pos] !== ch) throw new QSyntaxError(`expected "${ch}"`, pos);
    pos++;
  };

  const readWord = (): string => {
    const start = pos;
    while (pos < input.length && !WORD_STOP.has(input[pos]!)) {
      if (input[pos] === '\\' && pos + 1 < input.length) pos++;
      pos++;
    }
    if (pos === start) throw new QSyntaxError('expected a value', pos);
    return input.slice(start, pos).replace(/\\(.)/g, '$1');
  };
  const readPhrase = (): string => {
    const start = pos;
    pos++; // opening quote
    let text = '';
    while (pos < input.length && input[pos] !== '"') {
      if (input[pos] === '\\' && pos + 1 < input.length) pos++;
      text += input[pos];
      pos++;
    }
    if (input[pos] !== '"') throw new QSyntaxError('unterminated phrase', start);
    pos++;
    return text;
  };

  const readValue = (field: string[], exact: boolean): QNode => {
    skipSpace();
    const ch = input[pos];
    if (ch === '"') return { kind: 'match', field, exact, value: { type: 'phrase', text: readPhrase() } };
    if (ch === '[' || ch === '{') {
      const loInclusive = ch === '[';
      pos++;
      const bound = (): string | null => {
        skipSpace();
        if (input[pos] === '"') return readPhrase();
        const w = readWord();
        return w === '*' ? null : w;
      };
      const lo = bound();
      if (!atKeyword('TO')) throw new QSyntaxError('expected "TO" in a range', pos);
      pos += 2;
      const hi = bound();
      skipSpace();
      const close = input[pos];
      if (close !== ']' && close !== '}') throw new QSyntaxError('expected "]" or "}" to close the range', pos);
      pos++;
      if (exact) throw new QSyntaxError('"!" cannot apply to a range', pos);
      return { kind: 'range', field, lo, hi, loInclusive, hiInclusive: close === ']' };
    }
    const text = readWord();
    return { kind: 'match', field, exact, value: { type: /[*?]/.test(text) && !exact ? 'wildcard' : 'word', text } };
  };

  const term = (): QNode => {
    skipSpace();
    const start = pos;
    let exact = false;
    if (input[pos] === '!') {
      exact = true;
      pos++;
    }
    const m = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*/.exec(input.slice(pos));
    if (!m) throw new QSyntaxError('expected a field name (field:value)', pos);
    pos += m[0].length;
    if (input[pos] !== ':') throw new QSyntaxError(`expected ":" after ${m[0]} (every term is field:value)`, pos);
    pos++;
    if (++terms > Q_LIMITS.terms) throw new QSyntaxError(`more than ${Q_LIMITS.terms} terms`, start);
    return readValue(m[0].split('.'), exact);
  };

  const primary = (): QNode => {
    skipSpace();
    if (input[pos] === '(') {
      pos++;
      if (++depth > Q_LIMITS.depth) throw new QSyntaxError(`more than ${Q_LIMITS.depth} nested groups`, pos);
      const node = or();
      expect(')');
      depth--;
      return node;
    }
    return term();
  };

  const unary = (): QNode => {
    skipSpace();
    if (input[pos] === '-') {
      pos++;
      return { kind: 'not', node: unary() };
    }
    if (atKeyword('NOT')) {
      pos += 3;
      return { kind: 'not', node: unary() };
    }
    return primary();
  };

  const and = (): QNode => {
    const nodes = [unary()];
    for (;;) {
      skipSpace();
      if (pos >= input.length || input[pos] === ')' || atKeyword('OR')) break;
      if (atKeyword('AND')) pos += 3;
      nodes.push(unary());
    }
    return nodes.length === 1 ? nodes[0]! : { kind: 'and', nodes };
  };

  function or(): QNode {
    const nodes = [and()];
    while (atKeyword('OR')) {
      pos += 2;
      nodes.push(and());
    }
    return nodes.length === 1 ? nodes[0]! : { kind: 'or', nodes };
  }

  skipSpace();
  if (pos >= input.length) throw new QSyntaxError('q is empty', 0);
  const tree = or();
  skipSpace();
  if (pos < input.length) throw new QSyntaxError(`unexpected "${input[pos]}"`, pos);
  return tree;
}
