// Lint rules for the whole repository. Beyond correctness, they hold the layering in place:
// web features stay independent of each other, the design system and libraries never reach into features,
// a server feature reaches another only through its service, and contracts depend on zod alone.
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
  // A server feature reaches another feature through its service, never its repository.
  ...serverFeatures.map((f) => ({
    target: `./server/src/features/${f}`,
    from: './server/src/features',
    except: serverFeatures
      .filter((g) => g !== f)
      .flatMap((g) => [`./${g}/${g}.service.ts`, `./${g}/index.ts`])
      .concat([`./${f}`]),
    message: "Call the other feature's service, not its repository or internals.",
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
