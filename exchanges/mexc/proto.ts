import protobuf from "protobufjs/light.js";

/**
 * The part of MEXC's published websocket schema (github.com/mexcdevelop/websocket-proto) that the
 * depth feed reads, with MEXC's field numbers: PushDataV3ApiWrapper carries the channel (1),
 * symbol (3), symbolId (4), createTime (5), sendTime (6) and, in its `body` oneof,
 * publicAggreDepths (313); PublicAggreDepthsV3Api has asks (1), bids (2), eventType (3),
 * fromVersion (4), toVersion (5); each level is price (1), quantity (2), both decimal strings.
 * The wrapper's other bodies (deals, tickers, private data) are not declared: protobuf skips them.
 */
const SCHEMA = {
  nested: {
    PublicAggreDepthV3ApiItem: {
      fields: {
        price: { type: "string", id: 1 },
        quantity: { type: "string", id: 2 },
      },
    },
    PublicAggreDepthsV3Api: {
      fields: {
        asks: { rule: "repeated", type: "PublicAggreDepthV3ApiItem", id: 1 },
        bids: { rule: "repeated", type: "PublicAggreDepthV3ApiItem", id: 2 },
        eventType: { type: "string", id: 3 },
        fromVersion: { type: "string", id: 4 },
        toVersion: { type: "string", id: 5 },
      },
    },
    PushDataV3ApiWrapper: {
      oneofs: { body: { oneof: ["publicAggreDepths"] } },
      fields: {
        channel: { type: "string", id: 1 },
        symbol: { type: "string", id: 3 },
        symbolId: { type: "string", id: 4 },
        createTime: { type: "int64", id: 5 },
        sendTime: { type: "int64", id: 6 },
        publicAggreDepths: { type: "PublicAggreDepthsV3Api", id: 313 },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(SCHEMA);

/** The outer message of every MEXC market-data push. */
export const PushDataV3ApiWrapper = root.lookupType("PushDataV3ApiWrapper");

export interface MexcDepthLevel {
  price: string;
  quantity: string;
}

export interface MexcAggreDepths {
  asks: MexcDepthLevel[];
  bids: MexcDepthLevel[];
  eventType: string;
  fromVersion: string;
  toVersion: string;
}

export interface MexcPush {
  channel: string;
  symbol?: string;
  symbolId?: string;
  sendTime?: number;
  publicAggreDepths?: MexcAggreDepths;
}

/** Decodes one binary frame; protobufjs throws on bytes that are not this message. */
export function decodePush(bytes: Uint8Array): MexcPush {
  const message = PushDataV3ApiWrapper.decode(bytes);
  return PushDataV3ApiWrapper.toObject(message, { longs: Number, defaults: true, arrays: true }) as MexcPush;
}

/** Encodes one push (the test mock speaks through the same types). */
export function encodePush(push: MexcPush): Uint8Array {
  const error = PushDataV3ApiWrapper.verify(push);
  if (error) throw new Error(`bad MEXC push: ${error}`);
  return PushDataV3ApiWrapper.encode(PushDataV3ApiWrapper.fromObject(push)).finish();
}
