export { createSinoSlice, initialSinoState, selectSinoToken, setToken, sinoReducer, sinoSlice } from "./sino-slice.js";
export type { SinoState, SinoToken } from "./sino-slice.js";
