// ESLint (flat config): keeps every package and example on the public entry points of the others
// (docs/versioning.md, "The public surface"). Type checking and unused names are tsc's (`npm run lint`
// runs both); this file holds only the import boundaries tsc cannot see.
import tseslint from 'typescript-eslint';

const PACKAGES = 'core|node|express|koa|fastify|fetch|postgres|client|cli|sql|console|oauth|events';

/** Another package's files, reached by path instead of through its entry points. */
const outsideEntryPoints = [
  {
    regex: `^(\\.\\./)+(packages/)?(${PACKAGES})/(src|dist|test)(/|$)`,
    message: "Import another package through its entry point (`@scimkit/<name>`), never its files.",
  },
  {
    regex: '^@scimkit/[a-z-]+/(src|dist|test)(/|$)',
    message: 'Import a package through its entry point, never its files.',
  },
  {
    regex: '^@scimkit/core/(?!(engine|adapter|printer|testing)$)',
    message: "@scimkit/core's entry points are @scimkit/core, /engine, /adapter, /printer and /testing.",
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**'] },
  // Only the rules below: directives written for other linters' rules are not this file's to judge.
  { linterOptions: { reportUnusedDisableDirectives: 'off' } },
  {
    files: ['packages/*/src/**/*.ts', 'examples/*/src/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    rules: { 'no-restricted-imports': ['error', { patterns: outsideEntryPoints }] },
  },
  {
    // An adapter is only the translation of its framework's request: it needs the server's types and
    // @scimkit/core/adapter (createAdapterPipeline), never the engines nor the testing kit.
    files: ['packages/{node,express,koa,fastify,fetch}/src/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...outsideEntryPoints,
            { regex: '^@scimkit/core/(engine|printer|testing)$', message: 'An adapter imports @scimkit/core and @scimkit/core/adapter only.' },
            { regex: '^@scimkit/(?!core)', message: 'An adapter depends on @scimkit/core alone.' },
          ],
        },
      ],
    },
  },
);
