// Request errors of /graphql that Apollo Server on a gateway would answer with a 500 or a 200: they
// are the client's, so they answer 400 with a GraphQL error body (GraphQL over HTTP: a response
// without `data` is a 4xx).
// - An operation that cannot be determined (an unknown operationName, several operations and no name):
//   Apollo Server leaves it to execution, and the gateway's executor throws, which Apollo answers 500.
// - An operation type the schema has no root for (a subscription: over HTTP there is none): graphql-js
//   16 validates it and the gateway's executor throws; graphql-js 17's KnownOperationTypesRule (the
//   spec's operation type existence) is added to validation here.
// - Introspection fields (`__schema`, `__type`) inside a fragment that carries @skip or @include:
//   the gateway's query planner (@apollo/query-planner 2.14) strips introspection from the root only,
//   then fails on them ("Was not able to find any options for __schema…"). Refused when validated,
//   with the way round it: the condition on the field itself.
// - An explicit null for a variable that has a default and is used where a value is required
//   (`query($f: Boolean = true) { a @include(if: $f) }` with {"f": null}): validation allows the
//   position for the default's sake, coercion keeps the null, and the gateway's planner throws on it
//   (a 500) where a subgraph would mask graphql-js's argument error as `internal`. Refused before
//   planning, as the variable coercion error it is (BAD_USER_INPUT).
// - Any other answer without `data` that Apollo sends with a 2xx (PersistedQueryNotSupported).
import {
  GraphQLError,
  Kind,
  TypeInfo,
  ValidationContext,
  isNonNullType,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';

/** An operation whose type has no root type in the schema is not valid. */
export function knownOperationTypesRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  return {
    OperationDefinition(node) {
      if (schema.getRootType(node.operation)) return;
      const message =
        node.operation === 'subscription'
          ? 'Subscriptions are not served over HTTP: subscribe over WebSocket (graphql-ws) at /graphql.'
          : `The ${node.operation} operation is not supported by the schema.`;
      context.reportError(new GraphQLError(message, { nodes: node }));
    },
  };
}

const ROOT_INTROSPECTION = new Set(['__schema', '__type']);
const CONDITIONS = new Set(['skip', 'include']);

/**
 * `__schema` and `__type` reached from an operation's root through a fragment with @skip or
 * @include. Each fragment is walked at most twice (conditionally or not), so the rule is linear in
 * the document whatever its spreads; cycles end there too.
 */
export function conditionalIntrospectionRule(context: ValidationContext): ASTVisitor {
  const walked = new Set<string>();
  const reported = new Set<FieldNode>();
  const walk = (set: SelectionSetNode, conditional: boolean): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        // Introspection fields exist only on the root type: no need to look inside other fields.
        if (conditional && ROOT_INTROSPECTION.has(selection.name.value) && !reported.has(selection)) {
          reported.add(selection);
          context.reportError(
            new GraphQLError(`${selection.name.value} cannot be inside a fragment with @skip or @include: put the condition on the field itself.`, { nodes: selection }),
          );
        }
        continue;
      }
      const here = conditional || Boolean(selection.directives?.some((directive) => CONDITIONS.has(directive.name.value)));
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, here);
        continue;
      }
      const key = `${selection.name.value}:${here}`;
      const fragment = context.getFragment(selection.name.value);
      if (!fragment || walked.has(key)) continue;
      walked.add(key);
      walk(fragment.selectionSet, here);
    }
  };
  return {
    OperationDefinition(node) {
      walk(node.selectionSet, false);
      return false;
    },
  };
}

/** Why GetOperation() found no operation, in graphql-js's words. */
export function unresolvedOperation(document: DocumentNode, operationName: string | undefined): string {
  if (operationName) return `Unknown operation named "${operationName}".`;
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION).length;
  return operations > 1 ? 'Must provide operation name if query contains multiple operations.' : 'Must provide an operation.';
}

/** The first variable given as null where the operation (its fragments included) needs a value. */
function nullInRequiredPosition(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): GraphQLError | null {
  const nulls = (operation.variableDefinitions ?? []).filter((definition) => variables[definition.variable.name.value] === null && !isNonNullType(definition.type));
  if (!nulls.length) return null;
  const context = new ValidationContext(schema, document, new TypeInfo(schema), () => undefined);
  for (const usage of context.getRecursiveVariableUsages(operation)) {
    const name = usage.node.name.value;
    if (usage.type && isNonNullType(usage.type) && nulls.some((definition) => definition.variable.name.value === name)) {
      return new GraphQLError(`Variable "$${name}" is null where a value of type ${usage.type} is required.`, {
        nodes: usage.node,
        extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
      });
    }
  }
  return null;
}

export function requestErrorsPlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request, schema }) {
          if (!operation) {
            // GetOperation() found none: say why, as a request error of the client.
            throw new GraphQLError(unresolvedOperation(document, request.operationName || undefined), {
              extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } },
            });
          }
          const refused = request.variables ? nullInRequiredPosition(schema, document, operation, request.variables) : null;
          if (refused) throw refused;
        },
        async willSendResponse({ response }) {
          // `data: null` is a response (200); no data at all is a request error.
          if (response.body.kind !== 'single' || response.body.singleResult.data !== undefined) return;
          if ((response.http.status ?? 200) < 400) response.http.status = 400;
        },
      };
    },
  };
}
