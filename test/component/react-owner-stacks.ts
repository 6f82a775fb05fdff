/**
 * React 19's development build, the one tests run (NODE_ENV is "test"), records where each element was created: an
 * Error with a stack of 10 frames and a console task (console.createTask, which Node has), for the owner stacks of its
 * warnings and its developer tools. React itself stops after 10,000 elements between two renders and uses a
 * placeholder for the rest; here it always does. Measured (bench/test-cpu.ts, issue 53) on moves, orders and contacts,
 * the three longest component files: 163.5 -> 141.6 s of processor time; the whole component project 421 -> 365 s
 * (254 -> 229 s of wall time). Warnings still come, with their component stack; what a test renders and sees is the
 * same. (React's internals: if an upgrade moves the counter, nothing changes but the time.)
 */
import * as React from 'react';

const internals = (React as unknown as Record<string, { recentlyCreatedOwnerStacks?: number } | undefined>).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (internals && typeof internals.recentlyCreatedOwnerStacks === 'number') {
  Object.defineProperty(internals, 'recentlyCreatedOwnerStacks', { get: () => Number.MAX_SAFE_INTEGER, set: () => {}, configurable: true });
}
