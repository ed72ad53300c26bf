// References to entities that another subgraph owns: the key is all this subgraph knows; the gateway
// asks the owner for the rest.
import type { Builder } from './builder.ts';

export function entityReferences(builder: Builder, names: readonly string[]) {
  return Object.fromEntries(
    names.map((name) => [name, builder.externalRef(name, builder.selection<{ id: string }>('id')).implement({ fields: (t) => ({ id: t.exposeID('id') }) })]),
  );
}
