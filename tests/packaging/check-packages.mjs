#!/usr/bin/env node
/**
 * Packaging check, run by .ci/run after `npm run build`: packs every published package with
 * `npm pack`, unpacks the tarballs into a scratch project outside the repository, and checks that
 *  - each tarball holds only package.json, README.md, LICENSE, CHANGELOG.md and dist/;
 *  - each manifest has the metadata docs/versioning.md promises (description, keywords, engines,
 *    sideEffects, license; no invented repository/homepage/bugs), and each adapter takes
 *    @scimkit/core as a peer dependency at `^` the core's version, never as a dependency;
 *  - `require()` and `import()` of every entry point load and expose the same, documented names;
 *  - the type declarations resolve under `moduleResolution` node16 (ESM and CJS), bundler and node10.
 * Third-party dependencies are linked from the repository's node_modules (nothing is installed).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const packages = ['core', 'node', 'express', 'koa', 'fetch', 'fastify', 'postgres', 'oauth', 'console', 'events', 'sql', 'client', 'cli'];
/** Entry point → names it must export (a subset: the ones the docs use). */
const documented = {
  '@scimkit/core': [
    'createScimServer', 'createMemoryStore', 'createSchemaRegistry', 'userResourceType', 'groupResourceType',
    'enterpriseUserSchema', 'builtinResourceTypes', 'scimError', 'ScimException', 'SCIM_TYPES', 'URN', 'DEFAULT_LIMITS',
    'bearerToken', 'comparisonKey',
  ],
  '@scimkit/core/adapter': ['createAdapterPipeline', 'readRequestBody', 'readWebBody', 'scimErrorResponse', 'answerClientError', 'limitHttpServer'],
  '@scimkit/core/engine': [
    'parseFilter', 'parsePatchPath', 'parseAttrPath', 'parseAttrPathList', 'printFilter', 'compileFilter', 'compileSort',
    'compileValueFilter', 'applyPatch', 'validateResource', 'projectResource',
  ],
  '@scimkit/core/testing': ['describeStoreConformance'],
  '@scimkit/core/printer': ['printFilter', 'printAttrPath', 'printPatchPath'],
  '@scimkit/node': ['createNodeHandler', 'answerClientError'],
  '@scimkit/express': ['createScimRouter', 'scimRouter', 'answerClientError'],
  '@scimkit/koa': ['createScimMiddleware', 'scimMiddleware', 'answerClientError'],
  '@scimkit/fetch': ['createFetchHandler'],
  '@scimkit/fastify': ['createScimPlugin', 'scimPlugin', 'scimFrameworkErrors', 'answerClientError', 'limitHttpServer'],
  '@scimkit/postgres': ['createPostgresStore', 'migrate', 'fromPgPool', 'fromPGlite', 'openPostgresStore', 'createPostgresOutbox'],
  '@scimkit/events': ['createEventDispatcher', 'webhookDelivery', 'subscribe', 'createSetIssuer', 'setPushDelivery', 'createSetPollEndpoint'],
  '@scimkit/oauth': [
    'createTokenEndpoint', 'createTokenVerifier', 'oauthAuthentication', 'scopePolicy', 'rateLimit', 'createSigningKeys',
    'createMemoryClientStore', 'createPostgresClientStore', 'createClient', 'rotateClientSecret', 'revokeClient', 'hashSecret', 'verifySecret',
  ],
  '@scimkit/console': ['createRequestLog', 'createMemoryLogStore', 'createPostgresLogStore'],
  '@scimkit/sql': ['createSqlStore', 'mappedSchemas', 'translateFilter', 'translateSort', 'fromBetterSqlite3', 'fromPgPool', 'fromMysqlPool', 'fromPGlite', 'registerSqliteFunctions'],
  '@scimkit/client': ['createScimClient', 'patchOps', 'userFilter', 'groupFilter', 'filterBuilder', 'bearerAuth', 'clientCredentialsAuth', 'ScimResponseError', 'ScimPreconditionFailedError'],
  '@scimkit/cli': ['runChecks', 'ALL_CHECKS', 'main', 'junitReport'],
};
/** Names that moved to `@scimkit/core/engine` or `@scimkit/core/adapter` and must not come back to the main entry. */
const engineOnly = ['parseFilter', 'printFilter', 'compileFilter', 'compileSort', 'applyPatch', 'validateResource', 'projectResource', 'readRequestBody', 'parseQuery', 'scimErrorResponse', 'limitHttpServer', 'answerClientError', 'createBodyCollector', 'bodyLimit'];
const thirdParty = ['chevrotain', '@chevrotain', 'fast-json-patch', 'express', 'koa', 'fastify', '@types', 'pg', 'pg-types', 'pg-pool', 'pg-protocol', 'pg-connection-string', 'pgpass', 'pg-int8', 'postgres-array', 'postgres-bytea', 'postgres-date', 'postgres-interval', 'split2', 'xtend', 'pg-cloudflare', '@electric-sql', 'jose', 'rate-limiter-flexible', 'standardwebhooks', '@stablelib', 'fast-sha256', 'kysely'];
/** vitest only loads inside its runner (and refuses require()), so the kit is loaded against a stand-in. */
const vitestStub = 'const noop = () => undefined; module.exports = { describe: noop, it: noop, test: noop, expect: noop, beforeEach: noop, afterEach: noop, beforeAll: noop, afterAll: noop };';

const failures = [];
const fail = (message) => failures.push(message);
const scratch = mkdtempSync(join(tmpdir(), 'scimkit-pkgcheck-'));
try {
  // 1. Pack and unpack.
  const modules = join(scratch, 'node_modules');
  mkdirSync(join(modules, '@scimkit'), { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', scratch, ...packages.flatMap((p) => ['-w', `packages/${p}`])], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const coreVersion = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')).version;
  for (const tarball of packed) {
    for (const { path } of tarball.files) {
      // @scimkit/cli also ships its bin launcher (bin/scimkit.mjs).
      const binAllowed = tarball.name === '@scimkit/cli' && /^bin\/[^/]+\.mjs$/.test(path);
      if (!binAllowed && !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+)$/.test(path)) fail(`${tarball.name}: unexpected file in the tarball: ${path}`);
    }
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
      if (!tarball.files.some((file) => file.path === needed)) fail(`${tarball.name}: ${needed} is missing from the tarball`);
    }
    const into = join(modules, tarball.name);
    mkdirSync(into, { recursive: true });
    execFileSync('tar', ['xzf', join(scratch, tarball.filename), '-C', into, '--strip-components=1']);
    checkManifest(JSON.parse(readFileSync(join(into, 'package.json'), 'utf8')), coreVersion);
  }
  for (const name of thirdParty) symlinkSync(join(root, 'node_modules', name), join(modules, name));
  mkdirSync(join(modules, 'vitest'));
  writeFileSync(join(modules, 'vitest', 'package.json'), JSON.stringify({ name: 'vitest', main: 'index.cjs' }));
  writeFileSync(join(modules, 'vitest', 'index.cjs'), vitestStub);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'pkgcheck', private: true, type: 'module' }));

  // 2. Runtime: CJS and ESM expose the documented names, and the same names.
  writeFileSync(
    join(scratch, 'load.cjs'),
    `const entries = ${JSON.stringify(Object.keys(documented))};
     const out = {};
     (async () => {
       for (const entry of entries) {
         const esm = Object.keys(await import(entry)).filter((k) => k !== 'default' && k !== 'module.exports').sort();
         let cjs;
         try { cjs = Object.keys(require(entry)).sort(); } catch (e) { cjs = String(e.message).split('\\n')[0]; }
         out[entry] = { cjs, esm };
       }
       process.stdout.write(JSON.stringify(out));
     })().catch((e) => { console.error(e); process.exit(1); });`,
  );
  const loaded = JSON.parse(execFileSync(process.execPath, ['load.cjs'], { cwd: scratch, encoding: 'utf8' }));
  for (const name of engineOnly) if (loaded['@scimkit/core'].esm.includes?.(name)) fail(`@scimkit/core: ${name} belongs to @scimkit/core/engine or /adapter only`);
  for (const [entry, names] of Object.entries(documented)) {
    const { cjs, esm } = loaded[entry];
    if (typeof cjs === 'string') fail(`${entry}: require() throws: ${cjs}`);
    else if (cjs.join() !== esm.join()) fail(`${entry}: require() and import() expose different names:\n  cjs ${cjs}\n  esm ${esm}`);
    for (const name of names) if (!esm.includes(name)) fail(`${entry}: ${name} is not exported`);
  }

  // 3. Types: every declaration resolves and is not \`any\`, under node16 (ESM, CJS) and bundler.
  const probe = (load) => `${load}
type IsAny<T> = 0 extends 1 & T ? true : false;
const notAny: [IsAny<typeof core.createScimServer>, IsAny<typeof engine.parseFilter>, IsAny<typeof testing.describeStoreConformance>, IsAny<typeof adapter.createAdapterPipeline>, IsAny<typeof node.createNodeHandler>, IsAny<typeof express.createScimRouter>, IsAny<typeof koa.createScimMiddleware>, IsAny<typeof fetchAdapter.createFetchHandler>, IsAny<typeof fastify.createScimPlugin>] = [false, false, false, false, false, false, false, false, false];
const server: core.ScimServer = core.createScimServer({ resourceTypes: [core.userResourceType], store: core.createMemoryStore() });
const handler: adapter.ScimHandler = server;
export const used = [notAny, server, engine.parseFilter('userName eq "x"'), node.createNodeHandler(handler), express.createScimRouter(handler), koa.createScimMiddleware(handler), fetchAdapter.createFetchHandler(handler), fastify.createScimPlugin];
`;
  const esmLoad = Object.entries({
    core: '@scimkit/core',
    engine: '@scimkit/core/engine',
    adapter: '@scimkit/core/adapter',
    testing: '@scimkit/core/testing',
    node: '@scimkit/node',
    express: '@scimkit/express',
    koa: '@scimkit/koa',
    fetchAdapter: '@scimkit/fetch',
    fastify: '@scimkit/fastify',
  });
  writeFileSync(join(scratch, 'probe.mts'), probe(esmLoad.map(([n, m]) => `import * as ${n} from '${m}';`).join('\n')));
  writeFileSync(join(scratch, 'probe.cts'), probe(esmLoad.map(([n, m]) => `import ${n} = require('${m}');`).join('\n')));
  writeFileSync(join(scratch, 'probe.ts'), probe(esmLoad.map(([n, m]) => `import * as ${n} from '${m}';`).join('\n')));
  const options = { strict: true, noEmit: true, skipLibCheck: false, types: ['node'], target: 'ES2022', lib: ['ES2022', 'DOM'] };
  const configs = {
    'tsconfig.node16.json': { compilerOptions: { ...options, module: 'node16', moduleResolution: 'node16' }, files: ['probe.mts', 'probe.cts'] },
    'tsconfig.bundler.json': { compilerOptions: { ...options, module: 'esnext', moduleResolution: 'bundler' }, files: ['probe.ts'] },
    // TypeScript's legacy resolution (no `exports`): `types` and `typesVersions` must still find every entry.
    'tsconfig.node10.json': { compilerOptions: { ...options, module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true }, files: ['probe.ts'] },
  };
  for (const [file, config] of Object.entries(configs)) {
    writeFileSync(join(scratch, file), JSON.stringify(config));
    try {
      execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', file], { cwd: scratch, encoding: 'utf8' });
    } catch (error) {
      // Errors inside third-party declarations (the repository's node_modules) are not ours to judge.
      const ours = String(error.stdout).split('\n').filter((line) => /error TS/.test(line) && !/^(\.\.\/)+.*node_modules\//.test(line));
      if (ours.length > 0) fail(`types under ${file}:\n${ours.join('\n')}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/** The metadata docs/versioning.md promises for every published package. */
function checkManifest(manifest, coreVersion) {
  const name = manifest.name;
  if (typeof manifest.description !== 'string' || manifest.description.length < 20) fail(`${name}: no description`);
  if (!Array.isArray(manifest.keywords) || !manifest.keywords.includes('scim')) fail(`${name}: keywords must include scim`);
  if (manifest.engines?.node !== '>=20') fail(`${name}: engines.node must be >=20`);
  if (manifest.sideEffects !== false) fail(`${name}: sideEffects must be false`);
  if (manifest.license !== 'MIT') fail(`${name}: license must be MIT`);
  for (const field of ['repository', 'homepage', 'bugs']) if (field in manifest) fail(`${name}: ${field} must wait for the project's public home`);
  if (name === '@scimkit/core') return;
  if (manifest.dependencies?.['@scimkit/core'] !== undefined) fail(`${name}: @scimkit/core must be a peer dependency, not a dependency`);
  if (manifest.peerDependencies?.['@scimkit/core'] !== `^${coreVersion}`) fail(`${name}: peerDependencies["@scimkit/core"] must be ^${coreVersion}`);
}

if (failures.length > 0) {
  console.error(`packaging check failed:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(`packaging: ${packages.length} packages packed; CJS, ESM and types (node16, bundler, node10) check out`);
