import { describe, expect, it } from "vitest";
import { cliCommand } from "./cli-command.js";

const PNPM = "pnpm/10.34.9 npm/? node/v20.20.2 linux x64";
const NPM = "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false";

describe("cliCommand: how suggested commands start", () => {
  it("is the bin's name when no package script named obelisk started the CLI", () => {
    expect(cliCommand({})).toBe("obelisk");
    expect(cliCommand({ npm_lifecycle_event: "test", npm_config_user_agent: PNPM })).toBe("obelisk");
    expect(cliCommand({ npm_lifecycle_event: "showcase", npm_config_user_agent: PNPM })).toBe("obelisk");
    expect(cliCommand({ npm_config_user_agent: NPM })).toBe("obelisk");
  });

  it("is the script as its package manager runs it with arguments when the obelisk script started it", () => {
    expect(cliCommand({ npm_lifecycle_event: "obelisk", npm_config_user_agent: PNPM })).toBe("pnpm obelisk");
    // npm takes the options after the script name for its own unless they follow --
    expect(cliCommand({ npm_lifecycle_event: "obelisk", npm_config_user_agent: NPM })).toBe(
      "npm run obelisk --",
    );
    expect(
      cliCommand({
        npm_lifecycle_event: "obelisk",
        npm_config_user_agent: "yarn/1.22.22 npm/? node/v20.20.2",
      }),
    ).toBe("yarn obelisk");
  });

  it("is the bin's name for a package manager it does not know, or none", () => {
    for (const agent of [undefined, "", "bun/1.2.0 npm/? node/v20", "constructor/1", "pnpm"])
      expect(cliCommand({ npm_lifecycle_event: "obelisk", npm_config_user_agent: agent })).toBe("obelisk");
  });
});
