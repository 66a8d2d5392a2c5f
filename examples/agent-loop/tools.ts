import { defineTool } from "obelisk";
import { z } from "zod";

const USERS: Readonly<Record<string, { name: string; city: string }>> = {
  u1: { name: "Ada", city: "Paris" },
  u2: { name: "Grace", city: "Oslo" },
};
const WEATHER: Readonly<Record<string, { tempC: number; sky: string }>> = {
  Paris: { tempC: 18, sky: "sunny" },
  Oslo: { tempC: 4, sky: "snowing" },
};

/** The agent loop's tools: a user's profile, then the weather in their city. */
export default [
  defineTool({
    name: "fetchUser",
    description: "A user's profile by id: name and city",
    input: z.object({ userId: z.string() }),
    output: z.object({ name: z.string(), city: z.string() }),
    run: ({ userId }) => {
      const user = USERS[userId];
      if (user === undefined) throw Object.assign(new Error(`no user ${userId}`), { code: "NOT_FOUND" });
      return user;
    },
  }),
  defineTool({
    name: "getWeather",
    description: "Today's weather in a city",
    input: z.object({ city: z.string() }),
    output: z.object({ city: z.string(), tempC: z.number().int(), sky: z.string() }),
    run: ({ city }) => ({ city, ...(WEATHER[city] ?? { tempC: 20, sky: "clear" }) }),
  }),
];
