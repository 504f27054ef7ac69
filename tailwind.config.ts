import type { Config } from "tailwindcss";

/**
 * Brand: site-safety colours of a crane yard. Steel navy for structure, hi-vis amber for
 * the calls to action, signal colours reserved for status.
 */
export default {
  content: ["./app/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        steel: {
          50: "#f3f6f9",
          100: "#e3e9f0",
          200: "#c5d2df",
          300: "#9fb3c7",
          400: "#6f8aa6",
          500: "#4f6b89",
          600: "#3d5570",
          700: "#2f435a",
          800: "#223246",
          900: "#172334",
          950: "#0e1622",
        },
        hivis: {
          50: "#fff8eb",
          100: "#feeac7",
          200: "#fdd28a",
          300: "#fcb54d",
          400: "#fb9b24",
          500: "#f07a0b",
          600: "#d45806",
          700: "#b03c09",
          800: "#8f2f0e",
          900: "#76290f",
        },
      },
      fontFamily: {
        sans: ["system-ui", "-apple-system", "Segoe UI", "Roboto", "Helvetica Neue", "Arial", "sans-serif"],
      },
    },
  },
  plugins: [],
} satisfies Config;
