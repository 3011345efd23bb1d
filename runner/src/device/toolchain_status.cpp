// The toolchain line's facts (see toolchain_status.hpp).
#include "device/toolchain_status.hpp"

#include "build/toolchain_config.hpp"

namespace workbook {

ToolchainStatus toolchain_status(const Workspace& workspace) {
  ToolchainStatus s;
  s.toolchain = find_toolchain(workspace.root());
  if (!s.toolchain) return s;
  s.outside_range = release_outside_supported(s.toolchain->release);
  s.check = check_toolchain(*s.toolchain, workspace.build_cache() / "toolchain-check");
  return s;
}

}  // namespace workbook
