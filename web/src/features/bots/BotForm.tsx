import { useState } from "react";
import type { AccountAnswer, AccountPath } from "../../../../lib/api.js";
import { type BotType, FLOATING_MODULES, WASH_TRADING_REASON } from "../../../../lib/schemas.js";
import { api } from "../../app/api";
import { queryClient } from "../../app/query";
import {
  BOT_BUTTONS,
  BOT_FIELDS,
  type Field,
  type FormValues,
  initialValues,
  MODULE_PARAMS,
  validateSetup,
} from "./bot-forms";
import { reloadBots } from "./bots-store";

function NumberField({
  field,
  values,
  set,
}: {
  field: Extract<Field, { kind: "number" }>;
  values: FormValues;
  set: (k: string, v: string) => void;
}) {
  const value = values[field.key] ?? "";
  return (
    <label className="field">
      <span>
        {field.label}
        {field.optional ? " (optional)" : ""}
      </span>
      {field.slider ? (
        <input
          type="range"
          aria-label={`${field.label} slider`}
          min={field.slider.min}
          max={field.slider.max}
          step={field.slider.step}
          value={value === "" || Number.isNaN(Number(value)) ? field.slider.min : Number(value)}
          onChange={(e) => set(field.key, e.target.value)}
        />
      ) : null}
      <input
        inputMode="decimal"
        className="num"
        name={field.key}
        aria-label={field.label}
        value={value}
        onChange={(e) => set(field.key, e.target.value)}
      />
    </label>
  );
}

/**
 * One bot's form (docs/dashboard-rules.md#validation "Bot forms"): the seed's fields, defaults and sliders with
 * absolute-value inputs beside them; Create stays disabled until the lib's schema passes, and the
 * schema's messages (the module error text among them) are shown. Heavy volume takes extra account
 * paths (docs/decisions.md#d16).
 */
export function BotForm(props: {
  type: BotType;
  path: AccountPath;
  pair: string;
  tradeKey: string | undefined;
  accounts: readonly AccountAnswer[];
  onCreated: () => void;
}) {
  const { type } = props;
  const [values, setValues] = useState<FormValues>(() => initialValues(type));
  const [paths, setPaths] = useState<AccountPath[]>([]);
  const [busy, setBusy] = useState(false);
  const set = (k: string, v: string) => setValues((old) => ({ ...old, [k]: v }));
  const validation = validateSetup(type, props.pair, values);
  const label = BOT_BUTTONS.find((b) => b.type === type)?.label ?? type;
  const others = props.accounts.filter((a) => a.path.join("\u0000") !== props.path.join("\u0000"));

  const create = async () => {
    if (!validation.ok) return;
    setBusy(true);
    const r = await api.call("setupBot", {
      path: props.path,
      ...(props.tradeKey !== undefined ? { key: props.tradeKey } : {}),
      body: {
        botType: type,
        setup: validation.setup,
        ...(type === "heavy-volume-bot" && paths.length > 0 ? { paths } : {}),
      },
    });
    setBusy(false);
    if (r.ok) {
      // the home cards' status letters come with the accounts list
      void queryClient.invalidateQueries({ queryKey: ["exchanges"] });
      await reloadBots();
      props.onCreated();
    }
  };

  return (
    <form
      className="form"
      aria-label={`${label} bot`}
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <h3>
        {label} <span className="muted">{props.pair}</span>
      </h3>
      {type === "volume-bot" || type === "heavy-volume-bot" || type === "candle-closer-bot" ? (
        <p className="muted small-text">{WASH_TRADING_REASON}</p>
      ) : null}
      <div className="bot-form">
        {BOT_FIELDS[type].map((f) =>
          f.kind === "number" ? (
            <NumberField key={f.key} field={f} values={values} set={set} />
          ) : f.kind === "range" ? (
            <fieldset key={f.key} className="field range">
              <legend>{f.label}</legend>
              <input
                inputMode="decimal"
                className="num"
                name={`${f.key}.min`}
                aria-label={`${f.label} min`}
                placeholder="Min"
                value={values[`${f.key}.min`] ?? ""}
                onChange={(e) => set(`${f.key}.min`, e.target.value)}
              />
              <input
                inputMode="decimal"
                className="num"
                name={`${f.key}.max`}
                aria-label={`${f.label} max`}
                placeholder="Max"
                value={values[`${f.key}.max`] ?? ""}
                onChange={(e) => set(`${f.key}.max`, e.target.value)}
              />
            </fieldset>
          ) : (
            <label key={f.key} className="field">
              <span>{f.label}</span>
              <select
                name={f.key}
                aria-label={f.label}
                value={values[f.key] ?? ""}
                onChange={(e) => set(f.key, e.target.value)}
              >
                {f.options.map((o) => (
                  <option key={o} value={o}>
                    {o === "" ? "—" : o}
                  </option>
                ))}
              </select>
            </label>
          ),
        )}
        {type === "floating-bot"
          ? FLOATING_MODULES.map((m) => (
              <fieldset key={m} className="field full">
                <legend>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={values[`module:${m}`] === "on"}
                      onChange={(e) => set(`module:${m}`, e.target.checked ? "on" : "")}
                    />
                    {m}
                  </label>
                </legend>
                {values[`module:${m}`] === "on" ? (
                  <div className="row">
                    {MODULE_PARAMS[m].map((p) => (
                      <label key={p} className="field grow">
                        <span>{p}</span>
                        <input
                          inputMode="decimal"
                          className="num"
                          aria-label={`${m} ${p}`}
                          value={values[`module:${m}.${p}`] ?? ""}
                          onChange={(e) => set(`module:${m}.${p}`, e.target.value)}
                        />
                      </label>
                    ))}
                  </div>
                ) : null}
              </fieldset>
            ))
          : null}
        {type === "heavy-volume-bot" ? (
          <fieldset className="field full">
            <legend>Extra account paths</legend>
            {others.length === 0 ? <p className="muted">No other accounts</p> : null}
            {others.map((a) => {
              const on = paths.some((p) => p.join("\u0000") === a.path.join("\u0000"));
              return (
                <label key={a.path.join("\u0000")} className="check">
                  <input
                    type="checkbox"
                    checked={on}
                    onChange={() =>
                      setPaths((old) =>
                        on ? old.filter((p) => p.join("\u0000") !== a.path.join("\u0000")) : [...old, a.path],
                      )
                    }
                  />
                  {a.path.join(" / ")}
                </label>
              );
            })}
          </fieldset>
        ) : null}
      </div>
      <ul className="error-text wrap" aria-label="Problems">
        {validation.ok ? null : validation.errors.map((e) => <li key={e}>{e}</li>)}
      </ul>
      <div className="row end">
        <button type="submit" className="btn primary" disabled={!validation.ok || busy}>
          Create
        </button>
      </div>
    </form>
  );
}
