// The hotspot_step component (light form, docs/FORMAT.md): this declaration is its interface,
// the files in hotspot_step/ its variants. One explicit time step of the HotSpot thermal
// simulation: temp_out from temp_in and power.
#pragma once
#include <peppher/runtime.h>

void hotspot_step(const peppher::Matrix<float>& power, const peppher::Matrix<float>& temp_in,
                  peppher::Matrix<float>& temp_out PEPPHER_WRITE, float step_div_cap, float rx_1,
                  float ry_1, float rz_1, float amb_temp);
