import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from "kysely";

const clean = (value: unknown) =>
  typeof value === "string" && value.includes("\0") ? value.replaceAll("\0", "") : value;

class StripNulTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = clean(node.value);
    return value === node.value ? super.transformValue(node) : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(clean) };
  }
}

/**
 * PostgreSQL text cannot hold NUL (U+0000) and fails the whole query; no real
 * text needs it. Removing it from every parameter, on both databases, keeps a
 * hostile byte from turning any input into a 500, and keeps the dialects alike.
 */
export class StripNulPlugin implements KyselyPlugin {
  readonly #transformer = new StripNulTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
