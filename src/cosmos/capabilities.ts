/**
 * The Azure Cosmos DB for MongoDB (RU) account capabilities Mayfly models, one line each: the
 * name as the Azure CLI and the portal spell it (`--capabilities`), and what it changes here.
 * A capability is off unless the server is started with it (`--cosmos-capabilities`, or
 * `cosmos: { capabilities: [...] }`).
 */

/** Every capability Mayfly knows, with what it turns on. */
export const CAPABILITIES = {
  AllVersionsAndDeletesChangeFeed: "change streams are the all versions and deletes change feed (Fabric mirroring's): deletes and TTL expirations are delete events, with the feed's metadata",
  EnableMongo16MBDocumentSupport: 'documents up to 16 MB instead of 2 MB',
  EnableTtlOnCustomPath: "a TTL index on one field other than '_ts' per collection (Date, or a number read as Unix milliseconds)",
  EnableUniqueIndexReIndex: 'a unique index may be built on a collection that holds documents',
} as const;

/** The name of a capability. */
export type CapabilityName = keyof typeof CAPABILITIES;

/** The capability names, sorted. */
export const CAPABILITY_NAMES: readonly CapabilityName[] = (Object.keys(CAPABILITIES) as CapabilityName[]).sort();

/** True when `name` is a capability Mayfly knows. */
export function isCapabilityName(name: unknown): name is CapabilityName {
  return typeof name === 'string' && Object.hasOwn(CAPABILITIES, name);
}
