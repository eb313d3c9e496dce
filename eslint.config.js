// Lint rules for the whole repository. Beyond correctness, they hold the layering in place:
// web features stay independent of each other, the design system and libraries never reach into features,
// a server feature reaches another only through its index.ts, and contracts depend on zod alone.
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';

const dirs = (p) =>
  fs.existsSync(p)
    ? fs
        .readdirSync(p, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
const webFeatures = dirs('web/src/features');
const serverFeatures = dirs('server/src/features');

const boundaryZones = [
  // A web feature never imports another feature: shared pieces move to lib/ or components/.
  ...webFeatures.map((f) => ({
    target: `./web/src/features/${f}`,
    from: './web/src/features',
    except: [`./${f}`],
    message: 'A web feature does not import another feature; compose them in app/ or move the shared piece to lib/.',
  })),
  { target: './web/src/lib', from: './web/src/features', message: 'lib/ does not depend on features.' },
  { target: './web/src/lib', from: './web/src/app', message: 'lib/ does not depend on the app.' },
  { target: './web/src/components', from: './web/src/features', message: 'components/ does not depend on features.' },
  { target: './web/src/components', from: './web/src/app', message: 'components/ does not depend on the app.' },
  { target: './web/src/features', from: './web/src/app', message: 'Features do not import the app that composes them.' },
  // A server feature reaches another feature only through that feature's index.ts, its one public surface of
  // named operations; services, repositories and other files stay private to their feature.
  ...serverFeatures.map((f) => ({
    target: `./server/src/features/${f}`,
    from: './server/src/features',
    except: serverFeatures
      .filter((g) => g !== f)
      .map((g) => `./${g}/index.ts`)
      .concat([`./${f}`]),
    message:
      'Import another feature only through its index.ts (add the named operation there), never its service, repository or internals.',
  })),
  { target: './server/src/shared', from: './server/src/features', message: 'shared/ never imports features.' },
  { target: './server/src/platform', from: './server/src/features', message: 'platform/ never imports features.' },
  { target: './server/src/platform', from: './server/src/shared', message: 'platform/ sits below shared/.' },
];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'e2e/.artifacts/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver': {
        typescript: { project: ['contracts/tsconfig.json', 'server/tsconfig.json', 'web/tsconfig.json'], noWarnOnMultipleProjects: true },
        node: true,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-control-regex': 'off',
    },
  },
  {
    // Type-aware rules: a promise is awaited, returned or explicitly voided, and never handed to something that
    // ignores what it returns (an event handler that rejects would fail silently). JSX attributes are exempt:
    // form libraries hand React a promise-returning submit handler by design and catch its failures themselves.
    files: ['{server,web,contracts}/src/**/*.{ts,tsx}', 'server/test/**/*.ts'],
    // The contracts package's own tests are outside its tsconfig (they are not part of the package).
    ignores: ['contracts/src/**/*.test.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // The ceiling of a module and of a function in product code: past it, split along the seam (a file per
    // part, a component per section, a hook for state). Tests read top to bottom as lists of cases and are
    // exempt.
    files: ['{server,web,contracts}/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Allowed past the ceiling: the database schema's table types, one interface per table, read as a whole
    // next to the migrations.
    files: ['server/src/platform/db/schema.ts'],
    rules: { 'max-lines': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Classic scripts the browser runs before the app loads (no modules, no bundler).
    files: ['web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    files: ['contracts/src/**/*.ts'],
    // Tests are not part of the package (contracts/tsconfig.json leaves them out): they may use vitest and node.
    ignores: ['contracts/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!zod$|\\.)', message: 'contracts depend on zod alone.' }] }],
    },
  },
);
