// What the code under test writes to this process's stderr (warnings, the debug log), captured while
// `action` runs and handed back with its outcome; stderr is restored even when `action` throws.

export async function captureStderr<T>(
  action: () => Promise<T>,
): Promise<{ written: string[]; result?: T; error?: unknown }> {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    return { written, result: await action() };
  } catch (error) {
    return { written, error };
  } finally {
    process.stderr.write = write;
  }
}
