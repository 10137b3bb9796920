/** Where a project keeps the files several commands read (a module of its own: the hooks import it without the plan machinery). */
export const DEFAULT_DIALECT = 'protocols/fdc.dialect.json';
/** The language `ratchet research plan` writes and lints research plans in. */
export const RESEARCH_DIALECT = 'protocols/research.dialect.json';
export const DEFAULT_REGISTRY = 'knowledge_core/plan_registry.json';
