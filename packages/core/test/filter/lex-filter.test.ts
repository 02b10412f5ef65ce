import { describe, expect, it } from 'vitest';
import { lexFilter } from '../../src/filter/lex-filter.js';

describe('lexFilter', () => {
  const lexed = (text: string) => lexFilter(text).tokens.map((token) => `${token.tokenType.name}:${token.image}`);

  it('reads a word that is exactly a keyword, in any case, as the keyword, and a longer word as a name', () => {
    expect(lexed('AnD andrew Pr pr.x NOT notable eQ eql TRUE null5')).toEqual([
      'And:AnD',
      'AttrPath:andrew',
      'Pr:Pr',
      'AttrPath:pr.x',
      'Not:NOT',
      'AttrPath:notable',
      'CompareOp:eQ',
      'AttrPath:eql',
      'True:TRUE',
      'AttrPath:null5',
    ]);
  });

  it('reads JSON numbers and strings, and stops at the first character no token starts at', () => {
    expect(lexed('0123 -1.5e+3 1. 2e "a\\"\\u00e9"')).toEqual([
      'NumberValue:0',
      'NumberValue:123',
      'NumberValue:-1.5e+3',
      'NumberValue:1',
    ]);
    expect(lexFilter('1. 2').problem).toEqual({ offset: 1, message: 'unexpected character "."' });
    expect(lexed('x eq "a\\"\\u00e9" ]')).toEqual(['AttrPath:x', 'CompareOp:eq', 'StringValue:"a\\"\\u00e9"', 'RBracket:]']);
    expect(lexFilter('x eq "a\\x"').problem?.offset).toBe(5);
  });
});
