/**
 * @sino/react: Sino's bell for React apps, on the framework-free embed core (src/client).
 *
 *   <SinoProvider sinoUrl="https://sino.exemplo.com.br" site="CHAVE" dispatch={store.dispatch}>
 *     <SinoBell />
 *   </SinoProvider>
 */
export { SinoProvider } from "./SinoProvider.js";
export type { SetTokenAction, SinoProviderProps } from "./SinoProvider.js";
export type { SinoUserProp } from "./person-sync.js";
export { SinoBell } from "./SinoBell.js";
export type { SinoBellProps } from "./SinoBell.js";
export { useSino } from "./useSino.js";
export type { UseSino } from "./useSino.js";
export { createSinoSlice, initialSinoState, selectSinoToken, setToken, sinoReducer, sinoSlice } from "./sino-slice.js";
export type { SinoState, SinoToken } from "./sino-slice.js";
export { connectTokenToStore } from "./token-bridge.js";
export type { SetTokenActionCreator, SnapshotSource } from "./token-bridge.js";
export { ApiRequestError, CONSOLE_MESSAGES } from "../../../src/client/index.js";
export { downloadMyData } from "../../../src/client/index.js";
export type { ErasedData, MyData } from "../../../src/client/index.js";
export type {
  Tags,
  TagValue,
  UserClaim,
  SinoChannelChoice,
  SinoClick,
  SinoClickAction,
  NotificationActionId,
  SinoClient,
  SinoNotice,
  SinoSnapshot,
  SinoStatus,
  SoftPromptConfig,
  UnavailableReason,
} from "../../../src/client/index.js";
