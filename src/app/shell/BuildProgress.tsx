/** The build's progress view, wired to the build: cancel, resume, build again, keep the data. */
import { ProgressView } from '../build/ProgressView';
import type { useBuild } from '../state/useBuild';

/** The build to show, and how the stored data is kept. */
export interface BuildProgressProps {
  build: ReturnType<typeof useBuild>;
  onKeepData: () => void;
}

/** The progress view of the build, or nothing before a build has progress. */
export function buildProgressView({ build, onKeepData }: BuildProgressProps) {
  return (
    build.progress && (
      <ProgressView
        progress={build.progress}
        onCancel={() => void build.cancel()}
        onResume={() => void build.resume(build.progress!.treeId, build.progress!.title)}
        onBuildAgain={() => build.buildAgain(build.progress!.treeId)}
        onKeepData={onKeepData}
      />
    )
  );
}
