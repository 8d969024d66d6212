import { describe, expect, it } from "vitest";
import { avatarInitial } from "@/features/site/user-menu";

describe("avatarInitial", () => {
  it("uses the first letter of the first name, else of the e-mail, else U", () => {
    expect(avatarInitial({ firstName: "élodie", email: "x@example.test" })).toBe("É");
    expect(avatarInitial({ firstName: "  ", email: "zoe@example.test" })).toBe("Z");
    expect(avatarInitial({ firstName: null, email: null })).toBe("U");
  });
});
