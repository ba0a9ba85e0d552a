import * as Popover from "@radix-ui/react-popover";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api } from "../../app/api";
import { useSingleFlight } from "../../components/single-flight";

const COUNT = /^\d{1,2}$/;

/** docs/dashboard-rules.md#screens "decimals setup": the token pair's price and amount decimals, POST /token/pair (admin, docs/dashboard-rules.md#roles). */
export function DecimalsSetup(props: {
  exchange: string;
  pair: string;
  decimals: { price: number; amount: number } | undefined;
}) {
  const client = useQueryClient();
  const [price, setPrice] = useState("");
  const [amount, setAmount] = useState("");
  useEffect(() => {
    setPrice(props.decimals ? String(props.decimals.price) : "");
    setAmount(props.decimals ? String(props.decimals.amount) : "");
  }, [props.decimals]);
  const valid = COUNT.test(price) && COUNT.test(amount);
  const save = useSingleFlight(async () => {
    const r = await api.call("setTokenPair", {
      body: {
        exchangeId: props.exchange,
        pair: props.pair,
        decimals: { price: Number(price), amount: Number(amount) },
      },
    });
    if (r.ok) void client.invalidateQueries({ queryKey: ["token-pairs"] });
  });
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button type="button" className="btn small">
          Decimals {props.decimals ? `${props.decimals.price}/${props.decimals.amount}` : "not set"}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover form" sideOffset={4} aria-label="Decimals setup">
          <label className="field">
            <span>Price decimals</span>
            <input
              name="priceDecimals"
              inputMode="numeric"
              value={price}
              onChange={(e) => setPrice(e.target.value.trim())}
            />
          </label>
          <label className="field">
            <span>Amount decimals</span>
            <input
              name="amountDecimals"
              inputMode="numeric"
              value={amount}
              onChange={(e) => setAmount(e.target.value.trim())}
            />
          </label>
          <button type="button" className="btn primary" disabled={!valid || save.busy} onClick={() => void save.run()}>
            Save decimals
          </button>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
