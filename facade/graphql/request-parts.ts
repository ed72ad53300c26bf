// The parts of a GraphQL request that admission and the trusted documents read, as the client sent
// them (unknown until checked).
export interface GraphQLRequestParts {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}
