/**
 * Demo photos: DiceBear "Lorelei" avatars (CC0 1.0, Lisa Wischofsky), rendered offline with resvg
 * and encoded to WebP with photon (the encoder the Worker uses), in the three variants the app
 * serves. A limited pool is rendered once and its bytes reused; every photo still gets its own key.
 */
import { createAvatar } from "@dicebear/core";
import { lorelei } from "@dicebear/collection";
import { Resvg } from "@resvg/resvg-js";
import { PhotonImage, SamplingFilter, gaussian_blur, resize } from "@cf-wasm/photon/node";
import type { Gender } from "./people.ts";
import type { HairColour } from "./profile-options.ts";
import { cachedJson } from "./cache.ts";
import { pick, type Rng } from "./random.ts";

export const FULL_SIZE = 600;
export const THUMB_SIZE = 200;
export type Avatar = { gender: Gender; hair: HairColour; full: Uint8Array; thumb: Uint8Array; blur: Uint8Array };

// Lorelei hair variants that read as short (men) or longer (women); picked by eye from the style sheet.
const MALE_HAIR = [
  "variant01",
  "variant02",
  "variant03",
  "variant04",
  "variant05",
  "variant06",
  "variant07",
  "variant08",
  "variant09",
  "variant12",
  "variant22",
  "variant36",
  "variant39",
  "variant44",
  "variant47",
] as const;
const BALD_HAIR = ["variant25", "variant28", "variant34"] as const;
const FEMALE_HAIR = [
  "variant10",
  "variant11",
  "variant13",
  "variant14",
  "variant15",
  "variant16",
  "variant17",
  "variant18",
  "variant19",
  "variant20",
  "variant21",
  "variant23",
  "variant24",
  "variant26",
  "variant29",
  "variant30",
  "variant31",
  "variant32",
  "variant33",
  "variant35",
  "variant37",
  "variant38",
  "variant40",
  "variant41",
  "variant42",
  "variant43",
  "variant45",
  "variant46",
  "variant48",
] as const;
const HAIR_RGB: Record<HairColour, string[]> = {
  blond: ["e8c46f", "d9b15a", "f0d58c"],
  brown: ["6b4226", "7d5233", "4e3020"],
  black: ["1f1f1f", "2b2421"],
  red: ["b2472a", "c1562f"],
  grey: ["b9b9b9", "9e9e9e", "d4d4d4"],
  bald: ["5a4a3f", "8c8c8c"],
};
const SKIN = ["ffffff", "fbe3d3", "f3cfb3", "e5b896", "c98e6a", "9a6446"];
const BACKGROUNDS = ["ffd5dc", "ffdfbf", "c0aede", "d1d4f9", "b6e3f4", "f9e2ae", "c9f2d0"];

/** How many distinct avatars to render per gender and hair colour (~150 in all). */
export const POOL: Record<Gender, Partial<Record<HairColour, number>>> = {
  female: { blond: 20, brown: 24, black: 16, red: 10, grey: 18 },
  male: { blond: 12, brown: 16, black: 12, red: 4, grey: 10, bald: 8 },
};

function svgFor(gender: Gender, hair: HairColour, seed: string) {
  const female = gender === "female";
  return createAvatar(lorelei, {
    seed,
    hair: [...(hair === "bald" ? BALD_HAIR : female ? FEMALE_HAIR : MALE_HAIR)],
    hairColor: HAIR_RGB[hair],
    skinColor: SKIN,
    backgroundColor: BACKGROUNDS,
    beardProbability: female ? 0 : 45,
    earringsProbability: female ? 55 : 5,
    hairAccessoriesProbability: female ? 15 : 0,
    glassesProbability: hair === "grey" ? 35 : 12,
    frecklesProbability: 12,
  }).toString();
}

function render(svg: string, size: number): PhotonImage {
  const image = new Resvg(svg, { fitTo: { mode: "width", value: size } }).render();
  return new PhotonImage(new Uint8Array(image.pixels), image.width, image.height);
}

function encode(image: PhotonImage): Uint8Array {
  try {
    return image.get_bytes_webp();
  } finally {
    image.free();
  }
}

/**
 * Blurred beyond recognition: render tiny, scale up, blur again. Photon's WebP is lossless, which
 * stores smooth gradients badly, so colours are rounded to steps of 8 first: half the bytes, no
 * visible banding.
 */
function blurred(svg: string): Uint8Array {
  const tiny = render(svg, 16);
  const big = resize(tiny, THUMB_SIZE, THUMB_SIZE, SamplingFilter.Triangle);
  tiny.free();
  gaussian_blur(big, 8);
  const pixels = big.get_raw_pixels().map((v) => Math.min(255, Math.round(v / 8) * 8));
  big.free();
  return encode(new PhotonImage(pixels, THUMB_SIZE, THUMB_SIZE));
}

export function renderAvatar(gender: Gender, hair: HairColour, seed: string): Avatar {
  const svg = svgFor(gender, hair, seed);
  return {
    gender,
    hair,
    full: encode(render(svg, FULL_SIZE)),
    thumb: encode(render(svg, THUMB_SIZE)),
    blur: blurred(svg),
  };
}

/** The whole pool (~4 s of CPU, so cached on disk between runs). */
export async function renderPool(): Promise<Avatar[]> {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
  const unb64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));
  const stored = await cachedJson(
    "avatars",
    import.meta.url,
    ["@dicebear/core", "@dicebear/collection", "@resvg/resvg-js", "@cf-wasm/photon"],
    () => {
      const pool = [];
      for (const gender of ["female", "male"] as const) {
        for (const [hair, count] of Object.entries(POOL[gender]) as [HairColour, number][]) {
          for (let i = 0; i < count; i++) {
            const a = renderAvatar(gender, hair, `${gender}-${hair}-${i}`);
            pool.push({ gender, hair, full: b64(a.full), thumb: b64(a.thumb), blur: b64(a.blur) });
          }
        }
      }
      return pool;
    },
  );
  return stored.map((a) => ({ ...a, full: unb64(a.full), thumb: unb64(a.thumb), blur: unb64(a.blur) }));
}

/** An avatar of the member's gender and hair colour (any of their gender if the pool has none). */
export function pickAvatar(rng: Rng, pool: readonly Avatar[], gender: Gender, hair: HairColour): Avatar {
  const matching = pool.filter((a) => a.gender === gender && a.hair === hair);
  return pick(rng, matching.length ? matching : pool.filter((a) => a.gender === gender));
}
