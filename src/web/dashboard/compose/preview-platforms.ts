/** The platforms the compose preview draws, in the order of its tabs. */
export const PREVIEW_PLATFORMS = ["android", "windows", "macos", "iphone"] as const;
export type PreviewPlatform = (typeof PREVIEW_PLATFORMS)[number];

export interface PreviewParts {
  /** The large image (below the text, or on top on Windows). */
  image: boolean;
  /** The small monochrome badge (Android's status bar and header). */
  badge: boolean;
  /** The action buttons' labels the platform shows. */
  actions: readonly string[];
  /** The app badge count on the app's icon (a home-screen web app). */
  appBadge: number | null;
  /** How many lines of the body fit before it is cut. */
  bodyLines: number;
}

/**
 * What each platform shows of a notification, as it first appears (not expanded):
 * - Android (Chrome): badge in the header, large image, both buttons under the text.
 * - Windows (Chrome and Edge, system notifications): image and both buttons side by side.
 * - macOS (Chrome and Safari): no large image, no badge; only the first action, inside the
 *   "Opções" menu of the banner.
 * - iPhone (home-screen web app, lock screen): no buttons and no image until it is expanded; the
 *   app badge count on the app's icon.
 */
export function previewParts(platform: PreviewPlatform, content: { image: string; badge: string; actions: readonly string[]; appBadge: number | null }): PreviewParts {
  const hasImage = content.image.trim() !== "";
  const hasBadge = content.badge.trim() !== "";
  switch (platform) {
    case "android":
      return { image: hasImage, badge: hasBadge, actions: content.actions.slice(0, 2), appBadge: null, bodyLines: 4 };
    case "windows":
      return { image: hasImage, badge: false, actions: content.actions.slice(0, 2), appBadge: null, bodyLines: 3 };
    case "macos":
      return { image: false, badge: false, actions: content.actions.slice(0, 1), appBadge: null, bodyLines: 2 };
    case "iphone":
      return { image: false, badge: false, actions: [], appBadge: content.appBadge, bodyLines: 4 };
  }
}
