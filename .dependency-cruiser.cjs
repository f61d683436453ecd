// Import boundaries of src/ (docs/architecture.md), checked by `npm run check` (depcruise).
// Type-only imports count: a type is a dependency on the module that owns it.

/** Feature modules, lowest first: a module may import only modules before it in this list. */
const LAYERS = [
  // What instances tell each other (cache changes): every module may publish and listen.
  'cluster',
  'audit',
  'settings',
  'email',
  'user-fields',
  'rbac',
  // Prometheus metrics: above the job queue it reads, below the modules that count.
  'metrics',
  // Events are reported from accounts and content up: below them, above the job queue.
  'webhooks',
  'accounts',
  'api-keys',
  'identity',
  'plugins',
  'auth',
  'content',
  'media',
  'dashboard',
  'health',
  // The OpenAPI document reads every module's routes: above them all.
  'openapi',
];

/** One rule per module: none of the modules after it. With the order above, no folder cycle. */
const layerRules = LAYERS.slice(0, -1).map((name, i) => ({
  name: `layer-${name}`,
  severity: 'error',
  comment: `src/modules/${name} may import only the modules listed before it in .dependency-cruiser.cjs`,
  from: { path: `^src/modules/${name}/` },
  to: { path: `^src/modules/(${LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Folders of src/ depend on each other one way only.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'common-knows-no-feature',
      severity: 'error',
      comment: 'src/common, src/config, src/database and src/fields know no module and no service wiring.',
      from: { path: '^src/(common|config|database|fields)/' },
      to: { path: '^src/(modules|plugins|jobs|cli)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'not-to-root',
      severity: 'error',
      comment:
        'Nothing below src/ imports the wiring at its root (svc.module, index, server, main, app.setup); ' +
        'the document CLI boots the app module, as main.ts does.',
      from: { path: '^src/[^/]+/', pathNot: '^src/cli/openapi\\.ts$' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'controller-not-to-repository',
      severity: 'error',
      comment: 'A controller calls its module service, never a repository or the DataSource.',
      from: { path: '\\.controller\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      name: 'not-to-other-module-internals',
      severity: 'error',
      comment:
        'A module uses another module through what it exports: its *.module.ts, *.service.ts and types (*.types.ts), never its repositories, controllers or helpers.',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/',
        pathNot: ['^src/modules/$1/', '\\.(module|service|types)\\.ts$'],
      },
    },
    {
      name: 'layer-jobs',
      severity: 'error',
      comment:
        'src/jobs sits between email and accounts: it uses email (and audit, below it: the retention purge); accounts and auth queue jobs.',
      from: { path: '^src/jobs/' },
      to: { path: '^src/modules/(?!email/|audit/)' },
    },
    {
      name: 'layer-below-jobs',
      severity: 'error',
      comment: 'The modules below src/jobs do not queue jobs.',
      from: { path: '^src/modules/(audit|email|user-fields|rbac)/' },
      to: { path: '^src/jobs/' },
    },
    {
      name: 'shipped-plugins-use-the-plugin-api',
      severity: 'error',
      comment:
        'A shipped plugin (src/plugins/<slug>/) sees the service as any plugin does: through src/plugins/api.ts only.',
      from: { path: '^src/plugins/([^/]+)/' },
      to: { path: '^src/', pathNot: ['^src/plugins/api\\.ts$', '^src/plugins/$1/'] },
    },
    {
      name: 'modules-know-no-shipped-plugin',
      severity: 'error',
      comment: 'The core runs plugins it is given; only the package root names the shipped ones.',
      from: { path: '^src/(modules|common|config|database|fields|jobs|cli)/' },
      to: { path: '^src/plugins/' },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    includeOnly: '^src/',
  },
};
