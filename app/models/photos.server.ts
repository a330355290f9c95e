/** Photos: R2 keys. Each photo is stored as three re-encoded variants under its random id. */
export type PhotoVariant = "full" | "thumb" | "blur";

export function photoKey(photoId: string, variant: PhotoVariant): string {
  return `photos/${photoId}/${variant}.webp`;
}
