import { EOF, tokenMatcher, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';
import {
  And,
  AttrPathToken,
  CompareOp,
  False,
  LBracket,
  LParen,
  Not,
  Null,
  NumberValue,
  Or,
  Pr,
  RBracket,
  RParen,
  StringValue,
  SubAttr,
  True,
} from './filter-tokens.js';

/*
 * Parser errors in SCIM words: what was expected, after what, and what was found instead. The parser
 * prefixes "Invalid filter at position N" (or "Invalid path …") with the offending token's offset.
 */

const COMPARISON = 'a comparison operator (eq, ne, co, sw, ew, gt, lt, ge, le)';
const VALUE = 'a value (a JSON string in double quotes, a number, true, false or null)';

function describeType(type: TokenType): string {
  if (type === CompareOp) return COMPARISON;
  if (type === StringValue || type === NumberValue || type === True || type === False || type === Null) return VALUE;
  if (type === Pr) return "'pr'";
  if (type === And || type === Or) return "'and' or 'or'";
  if (type === Not) return "'not ('";
  if (type === LParen) return "'('";
  if (type === RParen) return "')'";
  if (type === LBracket) return "a value filter '['";
  if (type === RBracket) return "']'";
  if (type === SubAttr) return "a sub-attribute ('.name')";
  if (type === AttrPathToken) return 'an attribute name';
  if (type === EOF) return 'the end of the expression';
  return type.name;
}

function describeExpected(types: readonly TokenType[]): string {
  const names: string[] = [];
  const has = (t: TokenType): boolean => types.includes(t);
  if (has(CompareOp)) names.push(COMPARISON);
  for (const type of types) {
    if (type === CompareOp) continue;
    const name = describeType(type);
    if (!names.includes(name)) names.push(name);
  }
  if (names.length <= 1) return names[0] ?? 'something else';
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''}`;
}

function describeFound(token: IToken | undefined): string {
  if (token === undefined || tokenMatcher(token, EOF)) return 'the end of the input';
  return `'${token.image}'`;
}

function after(previous: IToken | undefined): string {
  if (previous === undefined || previous.image === '' || Number.isNaN(previous.startOffset)) return 'at the start';
  return `after '${previous.image}'`;
}

export const filterErrorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, previous }) {
    return `expected ${describeExpected([expected])} ${after(previous)} but found ${describeFound(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant, ruleName }) {
    if (ruleName === 'patchPath') return `expected the end of the path but found ${describeFound(firstRedundant)}`;
    if (tokenMatcher(firstRedundant, RParen)) return "unbalanced ')': no '(' is open here";
    if (tokenMatcher(firstRedundant, RBracket)) return "unbalanced ']': no '[' is open here";
    return `expected 'and', 'or' or the end of the expression but found ${describeFound(firstRedundant)}`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous }) {
    const expected = expectedPathsPerAlt.flatMap((paths) => paths.map((path) => path[0])).filter((t): t is TokenType => t !== undefined);
    return `expected ${describeExpected([...new Set(expected)])} ${after(previous)} but found ${describeFound(actual[0])}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, previous }) {
    const first = expectedIterationPaths.map((path) => path[0]).filter((t): t is TokenType => t !== undefined);
    return `expected ${describeExpected([...new Set(first)])} ${after(previous)} but found ${describeFound(actual[0])}`;
  },
};
