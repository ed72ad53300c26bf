// The root fields of the graph that check a client secret or a password: any whose arguments hold an
// input field named clientSecret or password (issueAccessToken, revokeAccessToken and
// introspectAccessToken today), found in the schema so that a new one is covered without a list to
// keep. An operation that selects one goes through the failure accounting of /oauth/token
// (facade/http/credential-checks.ts); it may select at most one, so that one request is one guess.
import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  isInputObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { ApiError } from '../../platform/api/errors.ts';

const SECRET_INPUTS = new Set(['clientSecret', 'password']);

/** Whether an input type holds a secret, at any depth. */
function holdsSecret(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((field) => SECRET_INPUTS.has(field.name) || holdsSecret(field.type, seen));
}

const bySchema = new WeakMap<GraphQLSchema, Map<GraphQLObjectType, Set<string>>>();

/** The secret-checking fields of each root type of the schema, found once per schema. */
function credentialFieldsOf(schema: GraphQLSchema): Map<GraphQLObjectType, Set<string>> {
  let found = bySchema.get(schema);
  if (!found) {
    found = new Map();
    for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
      if (!root) continue;
      const names = Object.values(root.getFields())
        .filter((field) => SECRET_INPUTS.has(field.name) || field.args.some((arg) => SECRET_INPUTS.has(arg.name) || holdsSecret(arg.type)))
        .map((field) => field.name);
      found.set(root, new Set(names));
    }
    bySchema.set(schema, found);
  }
  return found;
}

export interface CredentialSelection {
  /** The field's response key (its alias, or its name). */
  responseKey: string;
  /** The client id it authenticates, when the arguments say (undefined for a password, or arguments graphql-js will refuse). */
  clientId: string | undefined;
}

/** The root fields an operation selects, fragments expanded (each once, so that cycles end). */
function rootFields(fragments: Map<string, FragmentDefinitionNode>, selectionSet: SelectionSetNode, seen = new Set<string>(), into: FieldNode[] = []): FieldNode[] {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) into.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) rootFields(fragments, selection.selectionSet, seen, into);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) rootFields(fragments, fragment.selectionSet, seen, into);
    }
  }
  return into;
}

/**
 * The field of the operation (the one of the document that runs) that checks a secret, or null when
 * it selects none; throws validation_failed when it selects more than one.
 */
export function credentialSelection(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): CredentialSelection | null {
  const root = schema.getRootType(operation.operation);
  const names = root ? credentialFieldsOf(schema).get(root) : undefined;
  if (!root || !names?.size) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const selected = rootFields(fragments, operation.selectionSet).filter((field) => names.has(field.name.value));
  if (selected.length === 0) return null;
  if (selected.length > 1) {
    const field = selected[0].name.value;
    throw new ApiError('validation_failed', `An operation may check one client secret or password; this one selects ${selected.length} (${[...new Set(selected.map((node) => node.name.value))].join(', ')}).`, [
      { field, issue: 'one_credential_check_per_operation' },
    ]);
  }
  const [node] = selected;
  return { responseKey: node.alias?.value ?? node.name.value, clientId: clientIdOf(schema, root.getFields()[node.name.value], node, operation, variables) };
}

function clientIdOf(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>, node: FieldNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): string | undefined {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return undefined;
  try {
    const input = getArgumentValues(field, node, coerced.coerced).input as { clientId?: unknown } | undefined;
    return typeof input?.clientId === 'string' ? input.clientId : undefined;
  } catch {
    return undefined; // graphql-js refuses these arguments before the field runs
  }
}
