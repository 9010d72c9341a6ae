// The vendor's shared definitions, in its include folder.
#define INC_STEP 1.0f
