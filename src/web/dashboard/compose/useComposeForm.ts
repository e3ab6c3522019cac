import { useReducer } from "react";
import type { ComposeErrors, ComposeField, ComposeValues } from "./compose-form.js";

/** What the form says under its fields after a send or a test: a success, or why it failed. */
export type ComposeOutcome = { severity: "success" | "error"; text: string } | null;

/** The compose form's own state: its values and what decides which errors show. */
export interface ComposeFormState {
  values: ComposeValues;
  /** Fields the operator has left: their client-side errors show from then on. */
  touched: Partial<Record<ComposeField, boolean>>;
  /** A send or test was tried: every client-side error shows. */
  submitted: boolean;
  /** The server's word on a field, until that field changes. */
  serverErrors: Partial<Record<ComposeField, string>>;
  outcome: ComposeOutcome;
}

export type ComposeFormAction =
  | { type: "set"; field: keyof ComposeValues; value: ComposeValues[keyof ComposeValues] }
  | { type: "touch"; field: ComposeField }
  | { type: "submitted" }
  | { type: "serverErrors"; errors: Partial<Record<ComposeField, string>> }
  | { type: "outcome"; outcome: ComposeOutcome }
  /** A template or a send fills the whole form: nothing of the last attempt stays. */
  | { type: "load"; values: ComposeValues };

export function initialComposeFormState(values: ComposeValues): ComposeFormState {
  return { values, touched: {}, submitted: false, serverErrors: {}, outcome: null };
}

export function composeFormReducer(state: ComposeFormState, action: ComposeFormAction): ComposeFormState {
  switch (action.type) {
    case "set":
      return {
        ...state,
        values: { ...state.values, [action.field]: action.value },
        // The server's error answered the old value (a date's, the time's too: they are one moment).
        serverErrors: { ...state.serverErrors, [action.field]: undefined, ...(action.field === "date" ? { time: undefined } : {}) },
        outcome: null,
      };
    case "touch":
      return { ...state, touched: { ...state.touched, [action.field]: true } };
    case "submitted":
      return { ...state, submitted: true };
    case "serverErrors":
      return { ...state, serverErrors: action.errors };
    case "outcome":
      return { ...state, outcome: action.outcome };
    case "load":
      return initialComposeFormState(action.values);
  }
}

/**
 * Beside a field: the server's text when it gave one, else the client rule's catalog key once the
 * field was touched or a send tried (the JSON data's at once, as it is typed).
 */
export function composeFieldError(state: ComposeFormState, clientErrors: ComposeErrors, field: ComposeField): { text: string } | { key: string } | undefined {
  const server = state.serverErrors[field];
  if (server) return { text: server };
  const key = clientErrors[field];
  return key && (state.submitted || state.touched[field] || field === "data") ? { key } : undefined;
}

/** The compose form's state (values, touched fields, errors, outcome) and its actions. */
export function useComposeForm(initial: () => ComposeValues) {
  const [state, dispatch] = useReducer(composeFormReducer, undefined, () => initialComposeFormState(initial()));
  return {
    state,
    set: <K extends keyof ComposeValues>(field: K, value: ComposeValues[K]) => dispatch({ type: "set", field, value }),
    touch: (field: ComposeField) => dispatch({ type: "touch", field }),
    markSubmitted: () => dispatch({ type: "submitted" }),
    setServerErrors: (errors: Partial<Record<ComposeField, string>>) => dispatch({ type: "serverErrors", errors }),
    setOutcome: (outcome: ComposeOutcome) => dispatch({ type: "outcome", outcome }),
    load: (values: ComposeValues) => dispatch({ type: "load", values }),
  };
}
