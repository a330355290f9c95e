/**
 * Image re-encoding (decision 171): runs in the images Worker (workers/images), never in the page
 * Worker, so page requests never load the 1.5 MB photon module.
 */
import * as photon from "@cf-wasm/photon";

export const FULL_EDGE = 1600;
export const THUMB_EDGE = 400;

import type { ImageVariants as Variants } from "../../app/lib/env";

/** Decodes and re-encodes (which drops EXIF and GPS) into the three variants. */
export async function reencode(bytes: Uint8Array): Promise<Variants> {
  const image = photon.PhotonImage.new_from_byteslice(bytes);
  const toFree: { free(): void }[] = [image];
  try {
    const w = image.get_width();
    const h = image.get_height();
    const fit = (edge: number) => {
      const s = Math.min(1, edge / Math.max(w, h));
      return [Math.max(1, Math.round(w * s)), Math.max(1, Math.round(h * s))] as const;
    };
    const [fw, fh] = fit(FULL_EDGE);
    const full = fw === w && fh === h ? image : photon.resize(image, fw, fh, photon.SamplingFilter.Lanczos3);
    if (full !== image) toFree.push(full);
    const [tw, th] = fit(THUMB_EDGE);
    const thumb = photon.resize(image, tw, th, photon.SamplingFilter.Triangle);
    toFree.push(thumb);
    // Strong blur: throw the detail away (24 px across), scale back up, then soften the blocks.
    const [sw, sh] = fit(24);
    const tiny = photon.resize(image, sw, sh, photon.SamplingFilter.Triangle);
    toFree.push(tiny);
    const blur = photon.resize(tiny, tw, th, photon.SamplingFilter.Gaussian);
    toFree.push(blur);
    photon.gaussian_blur(blur, 6);
    return {
      width: fw,
      height: fh,
      full: full.get_bytes_jpeg(85),
      thumb: thumb.get_bytes_jpeg(80),
      blur: blur.get_bytes_jpeg(60),
    };
  } finally {
    for (const x of toFree) x.free();
  }
}
