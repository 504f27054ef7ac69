/**
 * What evidence may be and how large (shared by the upload form, the server's checks, the /api
 * document and the gate's body limit). The type of a file is decided from its bytes, never
 * from its name or the browser's word.
 */
export const EVIDENCE_MEDIA_TYPES = {
  "image/jpeg": { label: "JPEG photo", extension: "jpg", photo: true },
  "image/png": { label: "PNG image", extension: "png", photo: true },
  "image/heic": { label: "HEIC photo", extension: "heic", photo: true },
  "application/pdf": { label: "PDF document", extension: "pdf", photo: false },
  "video/mp4": { label: "MP4 video", extension: "mp4", photo: false },
} as const;

export type EvidenceMediaType = keyof typeof EVIDENCE_MEDIA_TYPES;
export const EVIDENCE_MEDIA_TYPE_NAMES = Object.keys(EVIDENCE_MEDIA_TYPES) as EvidenceMediaType[];

export function isEvidenceMediaType(value: string | undefined | null): value is EvidenceMediaType {
  return value != null && Object.hasOwn(EVIDENCE_MEDIA_TYPES, value);
}

/** At most 25 MB a file, enforced while the upload streams in. */
export const MAX_EVIDENCE_FILE_BYTES = 25 * 1024 * 1024;
/** At most this many files in one upload. */
export const MAX_EVIDENCE_FILES = 12;
/** The body of one upload: its files at their largest, and room for the form's fields. */
export const MAX_UPLOAD_BODY_BYTES = MAX_EVIDENCE_FILES * MAX_EVIDENCE_FILE_BYTES + 1024 * 1024;

/** The file input's accept list: a phone offers its camera and its photo library. */
export const EVIDENCE_ACCEPT = "image/*,application/pdf,video/mp4";

/** Paths that take uploads: the gate lets their bodies past its 1 MB limit (up to MAX_UPLOAD_BODY_BYTES). */
export function isUploadPath(pathname: string): boolean {
  return (
    /^\/trainer\/evidence\/(unit|hrw)\/[^/]+(\/upload)?\/?$/.test(pathname) ||
    /^\/api\/assessments\/(unit|hrw)\/[^/]+\/evidence\/?$/.test(pathname) ||
    // a trainer's currency evidence: the credential pages' activity forms and the /api upload
    /^\/(trainer\/credentials|admin\/credentials\/[^/]+|api\/trainer-activities\/[^/]+\/evidence)\/?$/.test(pathname) ||
    // a learner's documents, uploaded on their Student Profile
    /^\/admin\/students\/[0-9a-f-]{36}\/?$/.test(pathname)
  );
}

export const EVIDENCE_MESSAGES = {
  tooLarge: (name: string) => `${name} is larger than 25 MB.`,
  wrongType: (name: string) => `${name} is not a JPEG, PNG, HEIC, PDF or MP4 file (judged by its contents, not its name).`,
  none: "Choose at least one file.",
  tooMany: `Attach at most ${MAX_EVIDENCE_FILES} files at once.`,
  unreadable: (name: string) => `${name} could not be read as the image it claims to be.`,
} as const;
