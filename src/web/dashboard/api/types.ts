/** The operators' API shapes, from the shared contract (src/shared/api), under the dashboard's names. */
export type {
  User,
  UserRole as Role,
  CreateUserRequest,
  UpdateUserRequest,
  ChangeOwnPasswordRequest,
  PasswordResetResponse,
} from "../../../shared/api/users.js";
export type { ApiToken, TokenScope, CreateTokenRequest, CreateTokenResponse as CreatedToken } from "../../../shared/api/tokens.js";
export type { SetupRequest, SetupStatus, SignInRequest } from "../../../shared/api/auth.js";
