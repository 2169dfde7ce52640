// Default workload images. fortio/fortio is pinned by its release tag, not by digest: fortio
// builds every release tag as one multi-platform image (linux/amd64, arm64, ppc64le, s390x: see
// the note in fortio's .github/workflows/include.yml), but the only public digest for 1.69.4
// (sha256:65633fc5…e3d3) was found in a deployment pinned to arm64 nodes and could not be shown
// to be the multi-arch index; were it a single-arch manifest, echo pods on amd64 kind nodes would
// never start. The digest that actually ran is recorded with every result. Pin by digest
// yourself with kubernetes.images.echo once you have resolved the index digest
// (`docker buildx imagetools inspect fortio/fortio:1.69.4`).
export const FORTIO_IMAGE = 'fortio/fortio:1.69.4';
