import type { DatabaseHandle } from "./database.js";

/** The organisation's identity as stored; every field null until set. */
export interface StoredOrganisation {
  readonly name: string | null;
  readonly accentColor: string | null;
  /** The logo's MIME type and size, without its bytes (see `logo()`). */
  readonly logo: { readonly type: string; readonly width: number; readonly height: number } | null;
  /** Epoch ms of the last change; null when never set. */
  readonly updatedAt: number | null;
}

export interface OrganisationLogo {
  readonly type: string;
  readonly bytes: Buffer;
  readonly width: number;
  readonly height: number;
}

/** A change: an absent field stays as it is, null clears it. */
export interface OrganisationChange {
  readonly name?: string | null;
  readonly accentColor?: string | null;
  readonly logo?: OrganisationLogo | null;
}

export interface OrganisationRepository {
  get(): Promise<StoredOrganisation>;
  /** The logo's bytes, or undefined when none is set. */
  logo(): Promise<OrganisationLogo | undefined>;
  /** Applies the change in one statement and returns the result. */
  update(change: OrganisationChange, now: number): Promise<StoredOrganisation>;
}

const ROW_ID = 1;
const UNSET: StoredOrganisation = { name: null, accentColor: null, logo: null, updatedAt: null };

export function createOrganisationRepository(database: DatabaseHandle): OrganisationRepository {
  const { db } = database;

  async function get(): Promise<StoredOrganisation> {
    const row = await db
      .selectFrom("organisation")
      .select(["name", "accent_color", "logo_type", "logo_width", "logo_height", "updated_at"])
      .where("id", "=", ROW_ID)
      .executeTakeFirst();
    if (row === undefined) return UNSET;
    return {
      name: row.name,
      accentColor: row.accent_color,
      logo: row.logo_type === null ? null : { type: row.logo_type, width: Number(row.logo_width), height: Number(row.logo_height) },
      updatedAt: Number(row.updated_at),
    };
  }

  return {
    get,
    async logo() {
      const row = await db
        .selectFrom("organisation")
        .select(["logo", "logo_type", "logo_width", "logo_height"])
        .where("id", "=", ROW_ID)
        .executeTakeFirst();
      if (row?.logo == null || row.logo_type === null) return undefined;
      return { type: row.logo_type, bytes: Buffer.from(row.logo, "base64"), width: Number(row.logo_width), height: Number(row.logo_height) };
    },
    async update(change, now) {
      const values = {
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.accentColor === undefined ? {} : { accent_color: change.accentColor }),
        ...(change.logo === undefined
          ? {}
          : change.logo === null
            ? { logo: null, logo_type: null, logo_width: null, logo_height: null }
            : { logo: change.logo.bytes.toString("base64"), logo_type: change.logo.type, logo_width: change.logo.width, logo_height: change.logo.height }),
        updated_at: now,
      };
      // One upsert: two admins saving at once each apply their own fields, neither loses the row.
      await db
        .insertInto("organisation")
        .values({ id: ROW_ID, ...values })
        .onConflict((oc) => oc.column("id").doUpdateSet(values))
        .execute();
      return get();
    },
  };
}
