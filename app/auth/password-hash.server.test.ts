import { hash } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import {
  createConcurrencyGate,
  PASSWORD_HASH_CONCURRENCY,
  PASSWORD_HASH_OPTIONS,
  passwordHashGate,
  verifyPassword,
} from "./password-hash.server";

describe("password hash gate", () => {
  it("runs at most N tasks at once and queues the rest in order", async () => {
    const gate = createConcurrencyGate(3);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 10 }, (_, i) =>
      gate.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return i;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gate.active).toBe(3);
    expect(gate.waiting).toBe(7);
    while (releases.length > 0 || gate.active > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(3);
    expect(gate.peak).toBe(3);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(gate.active).toBe(0);
  });

  it("frees its slot when a task fails", async () => {
    const gate = createConcurrencyGate(1);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => "next")).toBe("next");
    expect(gate.active).toBe(0);
  });

  it("real Argon2id verifications of a burst never run more than PASSWORD_HASH_CONCURRENCY at once", async () => {
    const stored = await hash("Secret-pass1", PASSWORD_HASH_OPTIONS);
    const results = await Promise.all(
      Array.from({ length: PASSWORD_HASH_CONCURRENCY * 3 }, (_, i) =>
        verifyPassword(stored, i % 2 ? "Secret-pass1" : "Wrong-pass1"),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(Math.floor(results.length / 2));
    expect(passwordHashGate.peak).toBe(PASSWORD_HASH_CONCURRENCY);
    expect(passwordHashGate.active).toBe(0);
  });
});
