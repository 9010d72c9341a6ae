// Included by main.cpp through -I../include, relative to main.xml's folder.
const int kRounds = 4;
