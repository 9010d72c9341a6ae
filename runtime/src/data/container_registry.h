// The registry of live containers beyond what storage.h declares (track, untrack, retrack,
// is_tracked): what shutdown() does with it. See data/container_registry.cpp.
#pragma once

namespace peppher::detail {

/// @brief From shutdown(), after every task ended: takes every live container out of the
///        registry and detaches it (Storage::detach: its data home, in plain memory).
void detach_all_containers();

}  // namespace peppher::detail
