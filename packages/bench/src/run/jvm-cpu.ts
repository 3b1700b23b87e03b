/** The JVM's process CPU clock (OperatingSystemMXBean.getProcessCpuTime, on Linux) counts in steps of 10 ms. */
export const JVM_CPU_STEP_S = 0.01;

/** A Java CPU figure taken over fewer of its clock's steps than this is off by a tenth or more: it is not compared. */
const MIN_STEPS = 10;

/** Whether a Java CPU figure of `totalS` seconds in all was measured finely enough to compare. */
export function jvmCpuMeasured(totalS: number): boolean {
  return totalS >= MIN_STEPS * JVM_CPU_STEP_S;
}
