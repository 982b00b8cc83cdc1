import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir.js";

// Registered before each test file's own hooks, so it runs after them (hooks run as a stack):
// databases are closed and servers stopped before their directories go.
afterAll(removeTempDirs);
